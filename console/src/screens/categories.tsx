import { useState } from "../hooks";
import { slugFrom } from "../../../src/content/slugs";
import { api, get, type Category } from "../api";
import { CONSOLE_BASE } from "../router";
import { useWorkspace } from "../session";
import {
  categoryOption,
  filledIn,
  inTreeOrder,
  languageName,
  Loading,
  PerLanguageFields,
  Outcome,
  Screen,
  SelectField,
  TextField,
  useLoad,
  useSubmit,
  DeleteButton,
} from "../ui";

/** The category tree: drag a category among its siblings (or use its buttons) to order them. */
export function CategoriesScreen() {
  const { tenant, site, can } = useWorkspace();
  const path = `/tenants/${tenant.id}/sites/${site.id}/categories`;
  const load = useLoad(() => get<Category[]>(path), [path]);
  const order = useSubmit();
  const [dragged, setDragged] = useState<Category | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [saved, setSaved] = useState("");

  const move = async (category: Category, beforeId: number | null) => {
    const siblings = (load.data ?? []).filter((c) => c.parentId === category.parentId && c.id !== category.id).map((c) => c.id);
    const at = beforeId === null ? siblings.length : siblings.indexOf(beforeId);
    siblings.splice(at < 0 ? siblings.length : at, 0, category.id);
    if (await order.run(() => api("PUT", `${path}/order`, { parentId: category.parentId, ids: siblings }), `Moved ${category.name}.`)) load.reload();
  };
  const step = (category: Category, by: -1 | 1) => {
    const siblings = (load.data ?? []).filter((c) => c.parentId === category.parentId);
    const index = siblings.findIndex((c) => c.id === category.id);
    const target = siblings[index + by];
    if (!target) return;
    // `order.run` reports its own failure.
    void move(category, by === -1 ? target.id : (siblings[index + 2]?.id ?? null));
  };

  const branch = (parentId: number | null) => {
    const children = (load.data ?? []).filter((c) => c.parentId === parentId);
    if (!children.length) return null;
    return (
      <ul class="tree" role={parentId === null ? "list" : undefined}>
        {children.map((category, index) => (
          <li
            draggable={can("editor")}
            class={dragged?.id === category.id ? "dragging" : ""}
            onDragStart={(e: DragEvent) => {
              e.stopPropagation();
              setDragged(category);
            }}
            onDragEnd={() => setDragged(null)}
            onDragOver={(e: DragEvent) => {
              if (dragged && dragged.parentId === category.parentId) e.preventDefault();
            }}
            onDrop={(e: DragEvent) => {
              e.preventDefault();
              e.stopPropagation();
              if (dragged && dragged.id !== category.id && dragged.parentId === category.parentId) void move(dragged, category.id);
              setDragged(null);
            }}
          >
            <div class="tree-item">
              <span aria-hidden="true" class="grip">
                ⋮⋮
              </span>
              <strong>{category.name}</strong> <code>/c/{category.slug}</code>{" "}
              {/* What keeps a category from being deleted, and what its page lists. */}
              <a href={`${CONSOLE_BASE}/contents?category=${category.id}`}>
                Contents<span class="visually-hidden"> filed under {category.name}</span>
              </a>
              {can("editor") ? (
                <span class="actions">
                  <button
                    type="button"
                    disabled={index === 0 || order.busy}
                    onClick={() => step(category, -1)}
                    aria-label={`Move ${category.name} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    disabled={index === children.length - 1 || order.busy}
                    onClick={() => step(category, 1)}
                    aria-label={`Move ${category.name} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    id={`edit-category-${category.id}`}
                    // Said as text: the DOM renderer leaves out an attribute whose value is false.
                    aria-expanded={editing === category.id ? "true" : "false"}
                    onClick={() => setEditing(editing === category.id ? null : category.id)}
                  >
                    Edit<span class="visually-hidden"> {category.name}</span>
                  </button>
                  <DeleteButton
                    name={category.name}
                    question={`Delete the category ${category.name}?`}
                    path={`/tenants/${tenant.id}/categories/${category.id}`}
                    done={`Deleted ${category.name}.`}
                    run={order.run}
                    onDone={load.reload}
                  />
                </span>
              ) : null}
            </div>
            {editing === category.id && load.data ? (
              <EditCategory
                category={category}
                categories={load.data}
                onCancel={() => {
                  setEditing(null);
                  // Back where the person opened it.
                  requestAnimationFrame(() => document.getElementById(`edit-category-${category.id}`)?.focus());
                }}
                onDone={(message) => {
                  setEditing(null);
                  setSaved(message);
                  load.reload();
                }}
              />
            ) : null}
            {branch(category.id)}
          </li>
        ))}
      </ul>
    );
  };

  return (
    <Screen title="Categories">
      <Outcome failure={order.failure} done={order.done || saved} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.length ? (
        branch(null)
      ) : (
        <p>No categories yet{can("editor") ? ": make the first with the form below." : "."}</p>
      )}
      {can("editor") && load.data ? (
        <NewCategory
          categories={load.data}
          onCreated={() => {
            // The form says "Created …": an earlier "Saved …" above it is old news.
            setSaved("");
            load.reload();
          }}
        />
      ) : null}
    </Screen>
  );
}

function NewCategory(props: { categories: Category[]; onCreated: () => void }) {
  const { tenant, site } = useWorkspace();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [parent, setParent] = useState("");
  const [names, setNames] = useState<Record<string, string>>({});
  const otherLanguages = site.languages.filter((code) => code !== site.defaultLanguage);
  const create = useSubmit();
  const suggested = slugFrom(name, site.defaultLanguage);
  return (
    <form
      onInput={create.edited}
      class="panel"
      aria-labelledby="new-category"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const body = {
          siteId: site.id,
          name,
          names: filledIn(names, otherLanguages),
          slug: slug || suggested,
          parentId: parent ? Number(parent) : null,
          position: props.categories.length,
        };
        if (await create.run(() => api("POST", `/tenants/${tenant.id}/categories`, body), `Created ${name}.`)) {
          setName("");
          setNames({});
          setSlug("");
          props.onCreated();
        }
      }}
    >
      <h2 id="new-category">New category</h2>
      <Outcome failure={create.failure} done={create.done} />
      <div class="row">
        <TextField
          label="Name"
          name="name"
          value={name}
          onValue={setName}
          error={create.fieldError("name")}
          hint={otherLanguages.length ? `In ${languageName(site.defaultLanguage) ?? site.defaultLanguage}, the site's default language` : undefined}
          required
        />
        <TextField
          label="Slug"
          name="slug"
          value={slug}
          onValue={setSlug}
          placeholder={suggested}
          error={create.fieldError("slug")}
          hint={name || slug ? `Its page: /c/${slug || suggested}${slug ? "" : " (from the name, until you type one)"}` : undefined}
        />
        <SelectField
          label="Parent"
          name="parentId"
          value={parent}
          onValue={setParent}
          options={[["", "None (top level)"], ...inTreeOrder(props.categories).map(categoryOption)]}
          error={create.fieldError("parentId")}
        />
      </div>
      <NamesInOtherLanguages languages={otherLanguages} values={names} onValues={setNames} fieldError={create.fieldError} />
      <button class="primary" type="submit" disabled={create.busy}>
        Create category
      </button>
    </form>
  );
}

/** A category's name in each of the site's other languages, when it has any: at creation as on a change. */
function NamesInOtherLanguages(props: {
  languages: string[];
  values: Record<string, string>;
  onValues: (values: Record<string, string>) => void;
  fieldError: (name: string) => string | undefined;
}) {
  if (!props.languages.length) return null;
  return (
    <div class="row">
      <PerLanguageFields what="Name" field="names" {...props} hint={(language) => `On the ${language} pages; left empty, they show the name`} />
    </div>
  );
}

/** A category offered as a parent, indented by its depth: "— Football" under "Sport". */
/** A category and every category below it: what cannot become its parent. */
function withDescendants(categories: Category[], id: number): Set<number> {
  const found = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of categories)
      if (c.parentId !== null && found.has(c.parentId) && !found.has(c.id)) {
        found.add(c.id);
        grew = true;
      }
  }
  return found;
}

/** Rename, a new slug (its page moves to the new address), a description, another parent. */
function EditCategory(props: { category: Category; categories: Category[]; onCancel: () => void; onDone: (message: string) => void }) {
  const { tenant, site } = useWorkspace();
  const { category } = props;
  const [name, setName] = useState(category.name);
  const [names, setNames] = useState<Record<string, string>>(category.names);
  const otherLanguages = site.languages.filter((code) => code !== site.defaultLanguage);
  const [slug, setSlug] = useState(category.slug);
  const [description, setDescription] = useState(category.description ?? "");
  const [descriptions, setDescriptions] = useState<Record<string, string>>(category.descriptions);
  const [parent, setParent] = useState(category.parentId === null ? "" : String(category.parentId));
  const save = useSubmit();
  const below = withDescendants(props.categories, category.id);
  return (
    <form
      onInput={save.edited}
      class="panel"
      aria-label={`Edit ${category.name}`}
      onKeyDown={(e: KeyboardEvent) => e.key === "Escape" && props.onCancel()}
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const body = {
          name,
          names: filledIn(names, otherLanguages),
          slug,
          description: description.trim() || null,
          descriptions: filledIn(descriptions, otherLanguages),
          parentId: parent ? Number(parent) : null,
        };
        if (await save.run(() => api("PATCH", `/tenants/${tenant.id}/categories/${category.id}`, body))) props.onDone(`Saved ${name}.`);
      }}
    >
      <Outcome failure={save.failure} />
      <div class="row">
        <TextField label="Name" name="name" value={name} onValue={setName} error={save.fieldError("name")} required />
        <TextField
          label="Slug"
          name="slug"
          value={slug}
          onValue={setSlug}
          error={save.fieldError("slug")}
          hint={slug === category.slug ? `Its page: /c/${slug}` : `Its page moves to /c/${slug}; /c/${category.slug} will redirect there`}
          required
        />
        <SelectField
          label="Parent"
          name="parentId"
          value={parent}
          onValue={setParent}
          options={[
            ["", "None (top level)"],
            ...inTreeOrder(props.categories)
              .filter(({ category }) => !below.has(category.id))
              .map(categoryOption),
          ]}
          error={save.fieldError("parentId")}
        />
      </div>
      <NamesInOtherLanguages languages={otherLanguages} values={names} onValues={setNames} fieldError={save.fieldError} />
      <TextField
        label="Description"
        name="description"
        value={description}
        onValue={setDescription}
        multiline={2}
        error={save.fieldError("description")}
      />
      <PerLanguageFields
        what="Description"
        field="descriptions"
        languages={otherLanguages}
        values={descriptions}
        onValues={setDescriptions}
        fieldError={save.fieldError}
        hint={(language) => `On the ${language} pages; left empty, they show the description above`}
        multiline={2}
      />
      <div class="actions">
        <button class="primary" type="submit" disabled={save.busy}>
          Save category
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
