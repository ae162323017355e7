import { useState } from "hono/jsx/dom";
import { api, get, type Category, type ContentTag, type TagType } from "../api";
import { useWorkspace } from "../session";
import { CheckField, Loading, Outcome, Screen, SelectField, TextField, useLoad, useSubmit, TableHead, DeleteButton } from "../ui";

type LinkKind = "url" | "category" | "content" | "tag";
/** A menu as rows, each with its depth (0–2): the editor's shape of the API's item tree. */
interface MenuRow {
  label: string;
  kind: LinkKind;
  target: string;
  depth: number;
}
interface MenuItem {
  label: string;
  link: Record<string, string | number>;
  children?: MenuItem[];
}

const rowsOf = (items: MenuItem[], depth = 0): MenuRow[] =>
  items.flatMap((item) => {
    const [kind, target] = Object.entries(item.link)[0] ?? ["url", "/"];
    return [{ label: item.label, kind: kind as LinkKind, target: String(target), depth }, ...rowsOf(item.children ?? [], depth + 1)];
  });

function itemsOf(rows: MenuRow[]): MenuItem[] {
  const top: MenuItem[] = [];
  const open: MenuItem[][] = [top];
  for (const row of rows) {
    const item: MenuItem = {
      label: row.label,
      link: { [row.kind]: row.kind === "category" || row.kind === "content" ? Number(row.target) : row.target },
    };
    const depth = Math.min(row.depth, open.length - 1);
    open[depth]!.push(item);
    open.length = depth + 1;
    item.children = [];
    open.push(item.children);
  }
  const prune = (items: MenuItem[]): MenuItem[] =>
    items.map(({ children, ...item }) => (children?.length ? { ...item, children: prune(children) } : item));
  return prune(top);
}

/** Menus, taxonomies and posts queries: the named data templates read, each with a preview of what it gives them. */
export function TagsScreen() {
  const { tenant, site, can } = useWorkspace();
  const path = `/tenants/${tenant.id}/sites/${site.id}`;
  const load = useLoad(
    async () => ({ tags: await get<ContentTag[]>(`${path}/tags`), categories: await get<Category[]>(`${path}/categories`) }),
    [path],
  );
  const [editing, setEditing] = useState<ContentTag | "new" | null>(null);
  const [preview, setPreview] = useState<{ name: string; value: unknown } | null>(null);
  // The form closes when it saves: its message is said here instead.
  const [saved, setSaved] = useState("");
  const action = useSubmit();
  return (
    <Screen
      title="Content tags"
      actions={
        can("editor") ? (
          <button type="button" class="primary" onClick={() => (setSaved(""), setEditing("new"))}>
            New content tag
          </button>
        ) : null
      }
    >
      <p class="hint">Templates read a menu as menus.&lt;name&gt;, a taxonomy or a posts query as tags.&lt;name&gt;.</p>
      <Outcome failure={action.failure} done={action.done || saved} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <table>
          <TableHead columns={["Name", "Type", ""]} />
          <tbody>
            {load.data.tags.map((tag) => (
              <tr>
                <td>
                  <code>{tag.type === "menu" ? `menus.${tag.name}` : `tags.${tag.name}`}</code>
                </td>
                <td>{tag.type}</td>
                <td class="actions">
                  <button
                    type="button"
                    onClick={async () =>
                      setPreview({ name: tag.name, value: await action.run(() => get(`/tenants/${tenant.id}/tags/${tag.id}/preview`)) })
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
                        question={`Delete the content tag ${tag.name}?`}
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
          <h2 id="tag-preview">What templates read for {preview.name}</h2>
          <pre class="json">{JSON.stringify(preview.value, null, 2)}</pre>
        </section>
      ) : null}
      {editing && load.data ? (
        <TagForm
          key={editing === "new" ? "new" : String(editing.id)}
          tag={editing === "new" ? null : editing}
          categories={load.data.categories}
          onSaved={(message) => {
            setEditing(null);
            setSaved(message);
            load.reload();
          }}
        />
      ) : null}
    </Screen>
  );
}

interface QueryDefinition {
  categories?: number[];
  tags?: string[];
  order?: string;
  limit?: number;
}

function TagForm(props: { tag: ContentTag | null; categories: Category[]; onSaved: (message: string) => void }) {
  const { tenant, site } = useWorkspace();
  const [name, setName] = useState(props.tag?.name ?? "");
  const [type, setType] = useState<TagType>(props.tag?.type ?? "menu");
  const definition = (props.tag?.definition ?? {}) as QueryDefinition & { items?: MenuItem[] };
  const [rows, setRows] = useState<MenuRow[]>(
    props.tag?.type === "menu" ? rowsOf(definition.items ?? []) : [{ label: "Home", kind: "url", target: "/", depth: 0 }],
  );
  const [categoryIds, setCategoryIds] = useState<number[]>(definition.categories ?? []);
  const [tagNames, setTagNames] = useState((definition.tags ?? []).join(", "));
  const [order, setOrder] = useState(definition.order ?? "newest");
  const [limit, setLimit] = useState(String(definition.limit ?? 10));
  const save = useSubmit();
  const setRow = (index: number, change: Partial<MenuRow>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
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
        ? { items: itemsOf(rows) }
        : type === "taxonomy"
          ? { categories: categoryIds, tags }
          : { categories: categoryIds, tags, order, limit: Number(limit) },
  });
  return (
    <form
      class="panel"
      aria-labelledby="tag-form"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        if (await save.run(() => api("PUT", `/tenants/${tenant.id}/tags`, body()))) props.onSaved(`Saved ${name}.`);
      }}
    >
      <h2 id="tag-form">{props.tag ? `Edit ${props.tag.name}` : "New content tag"}</h2>
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
        <fieldset class="group">
          <legend>Menu items</legend>
          {rows.map((row, index) => (
            <div class="row menu-row" style={`margin-inline-start: ${row.depth * 1.5}rem`}>
              <TextField
                label={`Item ${index + 1} label`}
                name="label"
                value={row.label}
                onValue={(v) => setRow(index, { label: v })}
                error={save.fieldError(`definition.items.${index}.label`)}
              />
              <SelectField
                label="Links to"
                name="kind"
                value={row.kind}
                onValue={(v) => setRow(index, { kind: v as LinkKind, target: "" })}
                options={[
                  ["url", "Address"],
                  ["category", "Category"],
                  ["content", "Content id"],
                  ["tag", "Tag"],
                ]}
              />
              {row.kind === "category" ? (
                <SelectField
                  label="Category"
                  name="target"
                  value={row.target}
                  onValue={(v) => setRow(index, { target: v })}
                  options={[["", "Choose…"], ...props.categories.map((c): [string, string] => [String(c.id), c.name])]}
                />
              ) : (
                <TextField
                  label={row.kind === "url" ? "Address" : row.kind === "content" ? "Content id" : "Tag"}
                  name="target"
                  value={row.target}
                  onValue={(v) => setRow(index, { target: v })}
                />
              )}
              <SelectField
                label="Level"
                name="depth"
                value={String(row.depth)}
                onValue={(v) => setRow(index, { depth: Number(v) })}
                options={[
                  ["0", "Top"],
                  ["1", "Second"],
                  ["2", "Third"],
                ]}
              />
              <button type="button" onClick={() => setRows(rows.filter((_, i) => i !== index))}>
                Remove<span class="visually-hidden"> item {index + 1}</span>
              </button>
            </div>
          ))}
          <button type="button" onClick={() => setRows([...rows, { label: "", kind: "url", target: "/", depth: 0 }])}>
            Add an item
          </button>
        </fieldset>
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
      {save.failure && Object.keys(save.failure.fields).some((f) => f.startsWith("definition")) ? (
        <ul class="field-error">
          {Object.entries(save.failure.fields).map(([field, message]) => (
            <li>
              {field}: {message}
            </li>
          ))}
        </ul>
      ) : null}
      <button class="primary" type="submit" disabled={save.busy}>
        Save content tag
      </button>
    </form>
  );
}
