import { useEffect, useState } from "../hooks";
import { get, type Category, type Content, type ContentTag, type LinkTargets } from "../api";
import { useWorkspace } from "../session";
import { formatDate, SelectField, TextField } from "../ui";

export type LinkKind = "url" | "category" | "content" | "tag";

/** A menu as rows, each with its depth (0–2): the editor's shape of the API's item tree. */
export interface MenuRow {
  /** Stable across moves, so that a row keeps its inputs when the list is reordered. */
  key: number;
  label: string;
  kind: LinkKind;
  target: string;
  /** What the target is called (a content's title, a category's name), shown instead of its id. */
  title?: string;
  /** Why readers cannot open the target yet, when they cannot. */
  unpublished?: string;
  depth: number;
}
export interface MenuItem {
  label: string;
  link: Record<string, string | number>;
  children?: MenuItem[];
}

let lastKey = 0;
export const newRow = (row: Omit<MenuRow, "key">): MenuRow => ({ ...row, key: ++lastKey });

export const rowsOf = (items: MenuItem[], depth = 0): MenuRow[] =>
  items.flatMap((item) => {
    const [kind, target] = Object.entries(item.link)[0] ?? ["url", "/"];
    return [newRow({ label: item.label, kind: kind as LinkKind, target: String(target), depth }), ...rowsOf(item.children ?? [], depth + 1)];
  });

/** The rows as the API's tree, and each row's path in it (`definition.items.0.children.1`), where its field errors are named. */
export function itemsOf(rows: MenuRow[]): { items: MenuItem[]; paths: string[] } {
  const top: MenuItem[] = [];
  const open: { items: MenuItem[]; path: string }[] = [{ items: top, path: "definition.items" }];
  const paths: string[] = [];
  for (const row of rows) {
    const item: MenuItem = {
      label: row.label,
      link: { [row.kind]: row.kind === "category" || row.kind === "content" ? Number(row.target) : row.target },
    };
    const depth = Math.min(row.depth, open.length - 1);
    const parent = open[depth]!;
    paths.push(`${parent.path}.${parent.items.length}`);
    parent.items.push(item);
    open.length = depth + 1;
    item.children = [];
    open.push({ items: item.children, path: `${paths.at(-1)!}.children` });
  }
  const prune = (items: MenuItem[]): MenuItem[] =>
    items.map(({ children, ...item }) => (children?.length ? { ...item, children: prune(children) } : item));
  return { items: prune(top), paths };
}

/** Where a row's block ends: the row and the deeper rows under it move together. */
const blockEnd = (rows: MenuRow[], index: number) => {
  let end = index + 1;
  while (end < rows.length && rows[end]!.depth > rows[index]!.depth) end++;
  return end;
};

/** The row at `index`, with its sub-items, one place up or down among its siblings; null when it is already first or last. */
export function stepped(rows: MenuRow[], index: number, by: -1 | 1): MenuRow[] | null {
  const depth = rows[index]!.depth;
  const end = blockEnd(rows, index);
  if (by === 1) {
    if (end >= rows.length || rows[end]!.depth < depth) return null;
    const nextEnd = blockEnd(rows, end);
    return [...rows.slice(0, index), ...rows.slice(end, nextEnd), ...rows.slice(index, end), ...rows.slice(nextEnd)];
  }
  let previous = index - 1;
  while (previous >= 0 && rows[previous]!.depth > depth) previous--;
  if (previous < 0 || rows[previous]!.depth < depth) return null;
  return [...rows.slice(0, previous), ...rows.slice(index, end), ...rows.slice(previous, index), ...rows.slice(end)];
}

/** The dragged row's block dropped on another row: before it when moved up, after it when moved down. */
function dropped(rows: MenuRow[], from: number, onto: number): MenuRow[] {
  const end = blockEnd(rows, from);
  if (onto >= from && onto < end) return rows;
  const block = rows.slice(from, end);
  const rest = [...rows.slice(0, from), ...rows.slice(end)];
  const at = rest.indexOf(rows[onto]!) + (onto > from ? 1 : 0);
  return [...rest.slice(0, at), ...block, ...rest.slice(at)];
}

const pick = (row: MenuRow) => ({ title: row.title, unpublished: row.unpublished });

/** A label longer than this (a content's whole title, taken as its label) is said to be long. */
const LONG_LABEL = 30;

/** Why the site's menu leaves the item out for now, or nothing when readers can open its content. */
const notYetPublished = (content: Pick<Content, "title" | "status" | "publishAt">) =>
  content.status === "published"
    ? undefined
    : content.status === "scheduled"
      ? `“${content.title}” is scheduled for ${formatDate(content.publishAt)}: the site's menu shows this item (and those under it) from then on.`
      : `“${content.title}” is not published: the site's menu leaves this item out (and those under it) until it is.`;

/** The menu items of the site that link to a content, as "“Fireworks” in main" (the site's menu leaves them out while readers cannot open it). */
export async function menuItemsLinkingTo(tenantId: number, siteId: number, contentId: number): Promise<string[]> {
  const tags = await get<ContentTag[]>(`/tenants/${tenantId}/sites/${siteId}/tags`).catch(() => []);
  // A menu's definition is the items tree the API validated when it was saved (admin/params.ts).
  return tags
    .filter((tag) => tag.type === "menu")
    .flatMap((tag) =>
      rowsOf((tag.definition as { items?: MenuItem[] }).items ?? [])
        .filter((row) => row.kind === "content" && row.target === String(contentId))
        .map((row) => `“${row.label}” in ${tag.name}`),
    );
}

/** A question's last sentence when menu items link to the content: what its leaving the site does to them. */
export const leftOutOfMenus = (linking: string[], until: string) =>
  linking.length
    ? ` The menu item${linking.length === 1 ? "" : "s"} ${linking.join(", ")} link${linking.length === 1 ? "s" : ""} to it: the site leaves ${linking.length === 1 ? "it" : "them"} out of its menu ${until}.`
    : "";
const emptyTag = (name: string) =>
  `No published content has the tag ${name} yet: the site's menu leaves this item out (and those under it) until one has.`;

/** The items of a menu: each row's label, what it links to (found by title), its level; reordered by dragging or with ↑ ↓. */
export function MenuItems(props: {
  rows: MenuRow[];
  categories: Category[];
  /** The language of the pages the menu is for (`de` for `main.de`): its categories are named in it. */
  language?: string;
  /** Takes the new rows, or a change of the current ones (a late answer must not undo what the person did meanwhile). */
  onRows: (rows: MenuRow[] | ((current: MenuRow[]) => MenuRow[])) => void;
  fieldError: (name: string) => string | undefined;
}) {
  const { tenant, site } = useWorkspace();
  const { rows, onRows } = props;
  const [dragged, setDragged] = useState<number | null>(null);
  const { paths } = itemsOf(rows);
  const setRow = (index: number, change: Partial<MenuRow>) => onRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  // A category as the menu's pages show it: its German name and `/de/c/city` on German ones.
  const categoryShown = (category: Category) => ({
    name: (props.language && category.names[props.language]) || category.name,
    path: `${props.language && props.language !== site.defaultLanguage ? `/${props.language}` : ""}/c/${category.slug}`,
  });

  // The titles and states of what a saved menu links to, read once when it opens.
  useEffect(() => {
    if (!rows.some((row) => row.kind !== "url" && row.title === undefined)) return;
    void Promise.all(
      rows.map(async (row): Promise<MenuRow> => {
        if (row.title !== undefined || !row.target) return row;
        if (row.kind === "content") {
          const content = await get<Content>(`/tenants/${tenant.id}/contents/${row.target}`).catch(() => null);
          if (content) return { ...row, title: content.title, unpublished: notYetPublished(content) };
          const trashed = await get<Content>(`/tenants/${tenant.id}/trash/${row.target}`).catch(() => null);
          return trashed
            ? {
                ...row,
                title: trashed.title,
                unpublished: "This content is in the Trash: the site's menu leaves this item out (and those under it) until it is restored.",
              }
            : {
                ...row,
                title: `content ${row.target}`,
                unpublished:
                  "This content was deleted for good: the site's menu leaves this item out (and those under it). Link it to another page, or remove it.",
              };
        }
        if (row.kind === "category") {
          const category = props.categories.find((c) => String(c.id) === row.target);
          return { ...row, title: category ? categoryShown(category).name : `category ${row.target}` };
        }
        if (row.kind === "tag") {
          const found = await get<LinkTargets>(`/tenants/${tenant.id}/sites/${site.id}/link-targets?q=${encodeURIComponent(row.target)}`).catch(
            () => null,
          );
          const tag = found?.tags.find((t) => t.name === row.target);
          return { ...row, title: row.target, unpublished: found && !tag?.published ? emptyTag(row.target) : undefined };
        }
        return row;
      }),
    ).then((named) => {
      const found = new Map(named.map((row) => [row.key, row]));
      // Only a row still linking what was looked up takes its title.
      const same = (row: MenuRow, named?: MenuRow): named is MenuRow => named?.kind === row.kind && named.target === row.target;
      onRows((current) =>
        current.map((row) => (row.title === undefined && same(row, found.get(row.key)) ? { ...row, ...pick(found.get(row.key)!) } : row)),
      );
    });
  }, []);

  return (
    <fieldset class="group">
      <legend>Menu items</legend>
      <p class="hint">Drag an item by its handle, or move it with its ↑ ↓ buttons; its sub-items move with it.</p>
      <ol class="menu-items">
        {rows.map((row, index) => {
          const path = paths[index]!;
          const linkError = ["", ".url", ".category", ".content", ".tag"].map((field) => props.fieldError(`${path}.link${field}`)).find(Boolean);
          return (
            <li
              key={row.key}
              class={`menu-item${dragged === index ? " dragging" : ""}`}
              style={`margin-inline-start: ${row.depth * 1.5}rem`}
              onDragOver={(e: DragEvent) => {
                if (dragged !== null) e.preventDefault();
              }}
              onDrop={(e: DragEvent) => {
                e.preventDefault();
                if (dragged !== null) onRows(dropped(rows, dragged, index));
                setDragged(null);
              }}
            >
              <span
                class="grip"
                draggable="true"
                title="Drag to move"
                aria-hidden="true"
                onDragStart={(e: DragEvent) => {
                  e.dataTransfer?.setData("text/plain", row.label);
                  setDragged(index);
                }}
                onDragEnd={() => setDragged(null)}
              >
                ⋮⋮
              </span>
              <div class="row">
                <TextField
                  label={`Item ${index + 1} label`}
                  name="label"
                  value={row.label}
                  onValue={(v) => setRow(index, { label: v })}
                  error={props.fieldError(`${path}.label`)}
                  hint={
                    row.label.length > LONG_LABEL
                      ? "A long label: the site's menu shows all of it, over two lines on a phone. A word or two reads best."
                      : undefined
                  }
                />
                <SelectField
                  label={ofItem("Links to", index)}
                  name="kind"
                  value={row.kind}
                  onValue={(v) => setRow(index, { kind: v as LinkKind, target: v === "url" ? "/" : "", title: undefined, unpublished: undefined })}
                  options={[
                    ["url", "Address"],
                    ["content", "Content"],
                    ["category", "Category"],
                    ["tag", "Tag"],
                  ]}
                />
                {row.kind === "url" ? (
                  <TextField
                    label={ofItem("Address", index)}
                    name="target"
                    value={row.target}
                    onValue={(v) => setRow(index, { target: v })}
                    error={linkError}
                  />
                ) : (
                  <TargetPicker
                    item={index + 1}
                    kind={row.kind}
                    categories={props.categories}
                    categoryShown={categoryShown}
                    row={row}
                    error={linkError}
                    onPick={(pick) => setRow(index, { ...pick, label: row.label || (pick.title ?? "") })}
                  />
                )}
                <SelectField
                  label={ofItem("Level", index)}
                  name="depth"
                  value={String(row.depth)}
                  onValue={(v) => setRow(index, { depth: Number(v) })}
                  options={[
                    ["0", "Top"],
                    ["1", "Second"],
                    ["2", "Third"],
                  ]}
                />
                <span class="actions">
                  <button
                    type="button"
                    disabled={!stepped(rows, index, -1)}
                    onClick={() => onRows(stepped(rows, index, -1) ?? rows)}
                    aria-label={`Move item ${index + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={!stepped(rows, index, 1)}
                    onClick={() => onRows(stepped(rows, index, 1) ?? rows)}
                    aria-label={`Move item ${index + 1} down`}
                  >
                    ↓
                  </button>
                  <button type="button" onClick={() => onRows(rows.filter((_, i) => i !== index))}>
                    Remove<span class="visually-hidden"> item {index + 1}</span>
                  </button>
                </span>
              </div>
              {row.unpublished ? (
                <p class="alert warning" role="note">
                  {row.unpublished}
                </p>
              ) : null}
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onRows([...rows, newRow({ label: "", kind: "url", target: "/", depth: 0 })])}>
        Add an item
      </button>
    </fieldset>
  );
}

/**
 * A field's label as shown, and for a screen reader's list of fields the item it belongs to ("Level (item 3)"). The
 * hidden part is out of the flow, so browsers read a space before it: a comma there was read as "Level , item 3".
 */
const ofItem = (label: string, index: number) => (
  <>
    {label}
    <span class="visually-hidden"> (item {index + 1})</span>
  </>
);

const KIND_NAMES: Record<Exclude<LinkKind, "url">, string> = { content: "content", category: "category", tag: "tag" };

/** The categories with the words in either name, in order of the name shown (the menu's language's). */
function categoriesMatching(categories: Category[], words: string, shown: (category: Category) => { name: string; path: string }) {
  const needle = words.trim().toLowerCase();
  return categories
    .map((category) => ({ category, ...shown(category) }))
    .filter(({ category, name }) => !needle || name.toLowerCase().includes(needle) || category.name.toLowerCase().includes(needle))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ category, name, path }) => ({ target: String(category.id), title: name, note: path }));
}

/** A content, category or tag found by typing part of its title, instead of its id. */
function TargetPicker(props: {
  /** The item's number, for a screen reader: which item's link a control changes. */
  item: number;
  kind: Exclude<LinkKind, "url">;
  /** The site's categories, found here by either name: the menu's language's or the site's. */
  categories: Category[];
  categoryShown: (category: Category) => { name: string; path: string };
  row: MenuRow;
  error?: string;
  onPick: (pick: Pick<MenuRow, "target" | "title" | "unpublished">) => void;
}) {
  const { tenant, site } = useWorkspace();
  const [words, setWords] = useState("");
  const [found, setFound] = useState<LinkTargets | null>(null);
  const [searching, setSearching] = useState(false);
  useEffect(() => {
    if (!searching || props.kind === "category") return;
    let current = true;
    // A short pause after each key: one search when the person stops typing, not one per letter.
    const timer = setTimeout(() => {
      get<LinkTargets>(`/tenants/${tenant.id}/sites/${site.id}/link-targets?q=${encodeURIComponent(words)}`).then(
        (answer) => current && setFound(answer),
        () => current && setFound({ contents: [], categories: [], tags: [] }),
      );
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [words, searching]);

  const name = KIND_NAMES[props.kind];
  // Categories are all at hand (a site has tens); contents and tags are the search's answer.
  const choices: { target: string; title: string; note: string; unpublished?: string }[] =
    props.kind === "category"
      ? categoriesMatching(props.categories, words, props.categoryShown)
      : !found
        ? []
        : props.kind === "content"
          ? found.contents.map((c) => ({ target: String(c.id), title: c.title, note: `${c.status}, ${c.language}`, unpublished: notYetPublished(c) }))
          : found.tags.map((t) => ({
              target: t.name,
              title: t.name,
              note: `${t.published} published`,
              unpublished: t.published ? undefined : emptyTag(t.name),
            }));
  const chosen = props.row.target ? (props.row.title ?? props.row.target) : "";
  const pick = (choice: (typeof choices)[number]) => {
    props.onPick({ target: choice.target, title: choice.title, unpublished: choice.unpublished });
    setSearching(false);
    setWords("");
  };
  // Enter in the search picks the first match instead of sending the menu; the arrows move between the matches.
  const onKeyDown = (e: KeyboardEvent) => {
    const from = e.target;
    // The handler sits on the picker's element: its current target is that element.
    const results = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLButtonElement>(".picker-results button")];
    const at = results.findIndex((button) => button === from);
    if (e.key === "Enter" && from instanceof HTMLInputElement) {
      e.preventDefault();
      if (searching && choices[0]) pick(choices[0]);
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const next = e.key === "ArrowDown" ? results[at + 1] : at > 0 ? results[at - 1] : undefined;
      if (next) {
        e.preventDefault();
        next.focus();
      }
    }
  };
  return (
    <div class={`field picker${props.error ? " invalid" : ""}`} onKeyDown={onKeyDown}>
      {chosen && !searching ? (
        <>
          <span class="label">Linked {name}</span>
          <span class="picked">
            <strong>{chosen}</strong>{" "}
            <button type="button" onClick={() => setSearching(true)}>
              Change
              <span class="visually-hidden">
                {" "}
                the linked {name} of item {props.item}
              </span>
            </button>
          </span>
          {props.error ? <small class="field-error">{props.error}</small> : null}
        </>
      ) : (
        <>
          <TextField
            label={ofItem(`Find a ${name}`, props.item - 1)}
            name="find"
            type="search"
            value={words}
            onValue={(v) => (setWords(v), setSearching(true))}
            placeholder={props.kind === "content" ? "Part of its title" : "Part of its name"}
            error={props.error}
          />
          {searching && (found || props.kind === "category") ? (
            <ul class="picker-results" aria-label={`Matching ${name} choices`}>
              {choices.length ? (
                choices.map((choice) => (
                  <li>
                    <button type="button" onClick={() => pick(choice)}>
                      {choice.title} <small>{choice.note}</small>
                    </button>
                  </li>
                ))
              ) : (
                <li class="hint">
                  No {name} matches “{words}”.
                </li>
              )}
            </ul>
          ) : null}
        </>
      )}
    </div>
  );
}

export interface PreviewItem {
  label: string;
  url: string;
  children?: PreviewItem[];
}

/** A menu as the site shows it: its links in order, sub-items under their item. */
export function MenuPreview(props: { name: string; items: PreviewItem[] }) {
  const { siteUrl } = useWorkspace();
  const list = (items: PreviewItem[]) => (
    <ul>
      {items.map((item) => (
        <li>
          <a href={/^https?:\/\//.test(item.url) ? item.url : siteUrl(item.url)} target="_blank" rel="noopener">
            {item.label}
          </a>
          {item.children?.length ? list(item.children) : null}
        </li>
      ))}
    </ul>
  );
  return (
    <nav class="menu-preview" aria-label={`The menu ${props.name} as the site shows it`}>
      {props.items.length ? list(props.items) : <p class="hint">This menu has no items.</p>}
    </nav>
  );
}
