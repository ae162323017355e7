import { api, get, type Content, type Page } from "../api";
import { navigate } from "../router";
import { useWorkspace } from "../session";
import { DeleteButton, formatDate, Loading, Outcome, Pager, Screen, TableHead, useLoad, useSubmit } from "../ui";
import type { ScreenProps } from "./index";
import { leftOutOfMenus, menuItemsLinkingTo } from "./menu-editor";

type Trashed = Content & { purgeAt: string };

const PAGE_SIZE = 100;

/** Deleted contents of the site, last deleted first, restorable until the daily purge takes them (30 days after). */
export function TrashScreen({ query }: ScreenProps) {
  const { tenant, site, can } = useWorkspace();
  const page = Number(query.get("page") ?? 1) || 1;
  const load = useLoad(
    () => get<Page<Trashed>>(`/tenants/${tenant.id}/trash?siteId=${site.id}&page=${page}&size=${PAGE_SIZE}`),
    [tenant.id, site.id, page],
  );
  const pages = load.data ? Math.max(1, Math.ceil(load.data.total / PAGE_SIZE)) : 1;
  // The editor's Delete comes here with the content it moved (`?moved=`): said once, until something else is done.
  const moved = load.data?.items.find((content) => String(content.id) === query.get("moved"));
  const action = useSubmit();
  return (
    <Screen title="Trash">
      <p class="hint">
        A deleted content is gone from the site within seconds and waits here for 30 days, then it is deleted for good. Its address stays reserved
        until then: restore it, or delete it for good to use the address again.
      </p>
      <Outcome failure={action.failure} done={action.done || (moved && !action.failure ? `Moved “${moved.title}” to the Trash.` : "")} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.items.length === 0 ? (
        <p>The Trash is empty.</p>
      ) : (
        <table>
          <TableHead caption="Contents in the Trash" columns={["Title", "Address", "Deleted", "Deleted for good", ""]} />
          <tbody>
            {load.data.items.map((content) => (
              <tr>
                <td>{content.title}</td>
                <td>
                  <code>/{content.slug}</code> <span class="hint">({content.language})</span>
                </td>
                <td>{formatDate(content.deletedAt)}</td>
                <td>{formatDate(content.purgeAt)}</td>
                <td class="actions">
                  {can("editor") ? (
                    <>
                      <button
                        type="button"
                        class="primary"
                        disabled={action.busy}
                        onClick={async () => {
                          if (
                            await action.run(() => api("POST", `/tenants/${tenant.id}/trash/${content.id}/restore`), `Restored “${content.title}”.`)
                          )
                            load.reload();
                        }}
                      >
                        Restore<span class="visually-hidden"> {content.title}</span>
                      </button>
                      <DeleteButton
                        label="Delete for good"
                        name={content.title}
                        question={`Delete “${content.title}” for good? Its versions go too, and this cannot be undone.`}
                        path={`/tenants/${tenant.id}/trash/${content.id}`}
                        done={`Deleted “${content.title}” for good.`}
                        run={action.run}
                        onDone={load.reload}
                      />
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? <Pager page={page} pages={pages} onPage={(to) => navigate(`/trash?page=${to}`)} /> : null}
    </Screen>
  );
}

/** The editor's Delete: asks first, moves the content to the Trash, and goes to the Trash, where Restore brings it back. */
export function MoveToTrash(props: { content: Pick<Content, "id" | "title">; published: boolean }) {
  const { tenant, site } = useWorkspace();
  const action = useSubmit();
  return (
    <div class="trash-action">
      <Outcome failure={action.failure} />
      <button
        type="button"
        class="danger"
        disabled={action.busy}
        onClick={async () => {
          // A draft or a scheduled content is not on the site yet: telling its writer it leaves the site would alarm for nothing.
          const leaves = props.published ? "It leaves the site within seconds; you" : "You";
          const menus = props.published
            ? leftOutOfMenus(await menuItemsLinkingTo(tenant.id, site.id, props.content.id), "while it is in the Trash")
            : "";
          if (!confirm(`Delete “${props.content.title}”? ${leaves} can restore it from the Trash for 30 days.${menus}`)) return;
          if (await action.run(() => api("DELETE", `/tenants/${tenant.id}/contents/${props.content.id}`)))
            navigate(`/trash?moved=${props.content.id}`);
        }}
      >
        Delete
      </button>
    </div>
  );
}
