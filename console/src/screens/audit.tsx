import { get, type AuditEntry } from "../api";
import { navigate } from "../router";
import { useWorkspace } from "../session";
import { formatDate, Loading, Screen, useLoad, TableHead } from "../ui";
import type { ScreenProps } from "./index";

const SIZE = 50;

/** Who published, unpublished, deleted or activated what, newest first. */
export function AuditScreen({ query }: ScreenProps) {
  const { tenant } = useWorkspace();
  const page = Number(query.get("page") ?? 1) || 1;
  const load = useLoad(() => get<AuditEntry[]>(`/tenants/${tenant.id}/audit?page=${page}&size=${SIZE}`), [tenant.id, page]);
  return (
    <Screen title="Audit log">
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.length === 0 ? (
        <p>Nothing recorded{page > 1 ? " on this page" : " yet"}.</p>
      ) : (
        <table>
          <TableHead columns={["When", "Who (user id)", "Action", "Subject"]} />
          <tbody>
            {load.data.map((entry) => (
              <tr>
                <td>{formatDate(entry.at)}</td>
                <td>{entry.userId}</td>
                <td>{entry.action}</td>
                <td>{entry.subject}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => navigate(`/audit?page=${page - 1}`)}>
          Newer
        </button>
        <span>Page {page}</span>
        <button type="button" disabled={(load.data?.length ?? 0) < SIZE} onClick={() => navigate(`/audit?page=${page + 1}`)}>
          Older
        </button>
      </nav>
    </Screen>
  );
}
