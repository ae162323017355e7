import { useState } from "../hooks";
import { menuName } from "../../../src/content/menu-names";
import { api, get, type Category, type ContentTag, type TagType } from "../api";
import { useWorkspace } from "../session";
import { CheckField, languageName, Loading, Outcome, Screen, SelectField, TextField, useLoad, useSubmit, TableHead, DeleteButton } from "../ui";
import { itemsOf, MenuItems, MenuPreview, newRow, rowsOf, type MenuItem, type MenuRow, type PreviewItem } from "./menu-editor";

/** The places the default theme shows a menu by its name; any other name is for a theme that reads it. */
const THEME_PLACES: Record<string, string> = { main: "in the header", footer: "in the footer" };

/** Where a menu or tag shows, in words: the default theme's place for it and on which language's pages, or the name a theme reads. */
function whereShown(tag: ContentTag): string {
  if (tag.type !== "menu") return `a theme reads it as tags.${tag.name}`;
  const { code, language } = menuName(tag.name);
  const pages = language ? ` on ${languageName(language) ?? language} pages` : "";
  return `${THEME_PLACES[code] ?? `a theme reads it as menus.${code}`}${pages}`;
}

/** Menus, taxonomies and posts queries: the named data templates read, each with a preview of what it gives them. */
export function TagsScreen() {
  const { tenant, site, can } = useWorkspace();
  const path = `/tenants/${tenant.id}/sites/${site.id}`;
  const load = useLoad(
    async () => ({ tags: await get<ContentTag[]>(`${path}/tags`), categories: await get<Category[]>(`${path}/categories`) }),
    [path],
  );
  // The site's first language besides its default, to name a language's menu as this site would.
  const otherLanguage = site.languages.find((language) => language !== site.defaultLanguage);
  const [editing, setEditing] = useState<ContentTag | "new" | null>(null);
  const [preview, setPreview] = useState<{ name: string; type: TagType; value: unknown } | null>(null);
  // The form closes when it saves: its message is said here instead.
  const [saved, setSaved] = useState("");
  const action = useSubmit();
  return (
    <Screen
      title="Menus and content tags"
      actions={
        can("editor") ? (
          <button type="button" class="primary" onClick={() => (setSaved(""), setEditing("new"))}>
            New menu or tag
          </button>
        ) : null
      }
    >
      <p class="hint">
        The default theme shows the menu <code>main</code> in the header and <code>footer</code> at the foot of each page.{" "}
        {otherLanguage ? (
          <>
            A menu named <code>main.{otherLanguage}</code> takes the place of <code>main</code> on {languageName(otherLanguage) ?? otherLanguage}{" "}
            pages; without one, <code>main</code> shows there, its <code>/</code> leading to that language&apos;s home and each content to its
            translation where it has one.{" "}
          </>
        ) : null}
        Another theme reads a menu as <code>menus.&lt;name&gt;</code>, a taxonomy or a posts query as <code>tags.&lt;name&gt;</code>.
      </p>
      <Outcome failure={action.failure} done={action.done || saved} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : !load.data.tags.length ? (
        <p>No menus or content tags yet{can("editor") ? ": make the first with New menu or tag, main for the header." : "."}</p>
      ) : (
        <table>
          <TableHead caption="Menus and tags" columns={["Name", "Type", ""]} />
          <tbody>
            {load.data.tags.map((tag) => (
              <tr>
                <td>
                  <strong>{tag.name}</strong>
                  <small class="where-shown">{whereShown(tag)}</small>
                </td>
                <td>{tag.type}</td>
                <td class="actions">
                  <button
                    type="button"
                    onClick={async () =>
                      setPreview({
                        name: tag.name,
                        type: tag.type,
                        value: await action.run(() => get(`/tenants/${tenant.id}/tags/${tag.id}/preview`)),
                      })
                    }
                  >
                    Preview<span class="visually-hidden"> {tag.name}</span>
                  </button>
                  {can("editor") ? (
                    <>
                      <button type="button" onClick={() => setEditing(tag)}>
                        Edit<span class="visually-hidden"> {tag.name}</span>
                      </button>
                      <DeleteButton
                        name={tag.name}
                        question={`Delete the ${KIND_WORDS[tag.type]} ${tag.name}?`}
                        path={`/tenants/${tenant.id}/tags/${tag.id}`}
                        done={`Deleted ${tag.name}.`}
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
      {preview ? (
        <section class="panel" aria-labelledby="tag-preview">
          {preview.type === "menu" ? (
            <>
              <h2 id="tag-preview">The menu {preview.name} as the site shows it</h2>
              <MenuPreview name={preview.name} items={(preview.value ?? []) as PreviewItem[]} />
            </>
          ) : (
            <>
              <h2 id="tag-preview">What templates read for {preview.name}</h2>
              <pre class="json">{JSON.stringify(preview.value, null, 2)}</pre>
            </>
          )}
        </section>
      ) : null}
      {editing && load.data ? (
        <TagForm
          key={editing === "new" ? "new" : String(editing.id)}
          tag={editing === "new" ? null : editing}
          categories={load.data.categories}
          onSaved={async (message, tag) => {
            setEditing(null);
            setSaved(message);
            load.reload();
            // A saved menu is shown at once as the site will show it.
            if (tag.type === "menu")
              setPreview({ name: tag.name, type: tag.type, value: await get(`/tenants/${tenant.id}/tags/${tag.id}/preview`).catch(() => []) });
          }}
        />
      ) : null}
    </Screen>
  );
}

/** What a person calls each type of content tag. */
export const KIND_WORDS: Record<TagType, string> = { menu: "menu", taxonomy: "taxonomy", posts: "posts query" };

interface QueryDefinition {
  categories?: number[];
  tags?: string[];
  order?: string;
  limit?: number;
}

function TagForm(props: { tag: ContentTag | null; categories: Category[]; onSaved: (message: string, tag: ContentTag) => void }) {
  const { tenant, site } = useWorkspace();
  const [name, setName] = useState(props.tag?.name ?? "");
  const [type, setType] = useState<TagType>(props.tag?.type ?? "menu");
  const definition = (props.tag?.definition ?? {}) as QueryDefinition & { items?: MenuItem[] };
  const [rows, setRows] = useState<MenuRow[]>(
    props.tag?.type === "menu" ? rowsOf(definition.items ?? []) : [newRow({ label: "Home", kind: "url", target: "/", depth: 0 })],
  );
  const [categoryIds, setCategoryIds] = useState<number[]>(definition.categories ?? []);
  const [tagNames, setTagNames] = useState((definition.tags ?? []).join(", "));
  const [order, setOrder] = useState(definition.order ?? "newest");
  const [limit, setLimit] = useState(String(definition.limit ?? 10));
  const save = useSubmit();
  const tags = tagNames
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const body = () => ({
    siteId: site.id,
    type,
    name,
    definition:
      type === "menu"
        ? { items: itemsOf(rows).items }
        : type === "taxonomy"
          ? { categories: categoryIds, tags }
          : { categories: categoryIds, tags, order, limit: Number(limit) },
  });
  return (
    <form
      onInput={save.edited}
      class="panel"
      aria-labelledby="tag-form"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const saved = await save.run(() => api<ContentTag>("PUT", `/tenants/${tenant.id}/tags`, body()));
        if (saved) props.onSaved(`Saved ${name}.`, saved);
      }}
    >
      <h2 id="tag-form">{props.tag ? `Edit ${props.tag.name}` : `New ${KIND_WORDS[type]}`}</h2>
      <Outcome failure={save.failure} done={save.done} />
      <div class="row">
        <TextField
          label="Name"
          name="name"
          value={name}
          onValue={setName}
          error={save.fieldError("name")}
          hint="Lower-case words joined by dashes"
          required
          disabled={Boolean(props.tag)}
        />
        <SelectField
          label="Type"
          name="type"
          value={type}
          onValue={(v) => setType(v as TagType)}
          options={[
            ["menu", "Menu"],
            ["taxonomy", "Taxonomy"],
            ["posts", "Posts query"],
          ]}
          disabled={Boolean(props.tag)}
        />
      </div>
      {type === "menu" ? (
        <MenuItems
          rows={rows}
          categories={props.categories}
          language={menuName(name).language ?? undefined}
          onRows={setRows}
          fieldError={save.fieldError}
        />
      ) : (
        <>
          <fieldset class="group">
            <legend>Categories</legend>
            {props.categories.map((category) => (
              <CheckField
                label={category.name}
                checked={categoryIds.includes(category.id)}
                onValue={(on) => setCategoryIds(on ? [...categoryIds, category.id] : categoryIds.filter((c) => c !== category.id))}
              />
            ))}
          </fieldset>
          <TextField
            label="Tags"
            name="tags"
            value={tagNames}
            onValue={setTagNames}
            hint="Separated by commas"
            error={save.fieldError("definition.tags")}
          />
          {type === "posts" ? (
            <div class="row">
              <SelectField
                label="Order"
                name="order"
                value={order}
                onValue={setOrder}
                options={[
                  ["newest", "Newest first"],
                  ["oldest", "Oldest first"],
                  ["title", "By title"],
                ]}
              />
              <TextField label="How many" name="limit" type="number" value={limit} onValue={setLimit} error={save.fieldError("definition.limit")} />
            </div>
          ) : null}
        </>
      )}
      <button class="primary" type="submit" disabled={save.busy}>
        Save {KIND_WORDS[type]}
      </button>
    </form>
  );
}
