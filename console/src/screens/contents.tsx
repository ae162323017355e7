import { useId, useRef } from "hono/jsx/dom";
import { useEffect, useState } from "../hooks";
import { slugFrom } from "../../../src/content/slugs";
import {
  api,
  ApiFailure,
  get,
  type Site,
  type Category,
  type Content,
  type ContentStatus,
  type Media,
  type Page,
  type Storage,
  type Version,
  type VersionText,
  uploadMedia,
} from "../api";
import { VERSIONS_KEPT } from "../../../src/content/admin/text-limits";
import { diffLines } from "../diff";
import { CONSOLE_BASE, guardLeaving, navigate } from "../router";
import { MoveToTrash } from "./trash";
import { siteAddress, useWorkspace } from "../session";
import { leftOutOfMenus, menuItemsLinkingTo } from "./menu-editor";
import {
  asFailure,
  categoryOption,
  CheckField,
  DropZone,
  formatDate,
  inTreeOrder,
  isoToLocalInput,
  keepTabInside,
  languageName,
  Loading,
  localInputToIso,
  Outcome,
  Pager,
  RoomUse,
  Screen,
  SelectField,
  TextField,
  useLoad,
  useSubmit,
  TableHead,
  ImagePicker,
  isImage,
} from "../ui";
import type { ScreenProps } from "./index";

const STATUSES: ContentStatus[] = ["draft", "scheduled", "published"];
const PAGE_SIZE = 20;

export function ContentsScreen({ query }: ScreenProps) {
  const { tenant, site, can } = useWorkspace();
  const status = query.get("status") ?? "";
  const words = query.get("q") ?? "";
  const category = query.get("category") ?? "";
  const page = Number(query.get("page") ?? 1) || 1;
  const load = useLoad(() => {
    const filters = new URLSearchParams({
      siteId: String(site.id),
      page: String(page),
      size: String(PAGE_SIZE),
      status,
      categoryId: category,
      q: words,
    });
    for (const [k, v] of [...filters]) if (!v) filters.delete(k);
    return get<Page<Content>>(`/tenants/${tenant.id}/contents?${filters}`);
  }, [tenant.id, site.id, status, category, words, page]);
  const categories = useLoad(() => get<Category[]>(`/tenants/${tenant.id}/sites/${site.id}/categories`), [tenant.id, site.id]);
  const categoryName = categories.data?.find((c) => String(c.id) === category)?.name;
  const storage = useLoad(() => get<Storage>(`/tenants/${tenant.id}/storage`), [tenant.id]);
  const filterTo = (next: Record<string, string>, options: { replace?: boolean } = {}) => {
    const params = new URLSearchParams({ status, category, q: words, ...next });
    for (const [k, v] of [...params]) if (!v) params.delete(k);
    navigate(`/contents${params.size ? `?${params}` : ""}`, options);
  };
  // The list follows the search a moment after the last key, not at every letter; in place in the history, so
  // that Back leaves the list rather than stepping through what was typed (and the field always says what is shown).
  const [typed, setTyped] = useState(words);
  useEffect(() => {
    if (typed.trim() === words) return;
    const timer = setTimeout(() => filterTo({ q: typed.trim(), page: "" }, { replace: true }), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const pages = load.data ? Math.max(1, Math.ceil(load.data.total / PAGE_SIZE)) : 1;
  return (
    <Screen
      title="Contents"
      actions={
        can("author") ? (
          <a class="button primary" href={`${CONSOLE_BASE}/contents/new`}>
            New content
          </a>
        ) : null
      }
    >
      <div class="filters">
        <SelectField
          label="Status"
          name="status"
          value={status}
          onValue={(v) => filterTo({ status: v, page: "" })}
          options={[["", "Every status"], ...STATUSES.map((s): [string, string] => [s, s])]}
        />
        <SelectField
          label="Category"
          name="category"
          value={category}
          onValue={(v) => filterTo({ category: v, page: "" })}
          // Until the site's categories come, the one filtered by is not said to be every category.
          options={[
            ["", "Every category"],
            ...(categories.data ? inTreeOrder(categories.data).map(categoryOption) : category ? [[category, "…"] as [string, string]] : []),
          ]}
        />
        <TextField label="Find by title" name="q" type="search" value={typed} onValue={setTyped} placeholder="Part of a title" />
      </div>
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.items.length === 0 ? (
        <p>
          {words
            ? `No content${status ? ` with status ${status}` : ""}${categoryName ? ` filed under ${categoryName}` : ""} has “${words}” in its title.`
            : categoryName
              ? `No content${status ? ` with status ${status}` : ""} is filed under ${categoryName}.`
              : `No contents${status ? ` with status ${status}` : ""} yet.`}
        </p>
      ) : (
        <>
          <table class="contents">
            <TableHead caption="Contents" columns={["Title", "Language", "Status", "Changed"]} />
            <tbody>
              {load.data.items.map((content) => (
                <tr>
                  <td>
                    {/* Read in its own language's voice by a screen reader. */}
                    <a href={`${CONSOLE_BASE}/contents/${content.id}`} lang={content.language}>
                      {content.title}
                    </a>
                  </td>
                  <td>{languageName(content.language) ?? content.language}</td>
                  <td>
                    <span class={`badge ${content.status}`}>{content.status}</span>
                    {content.status === "scheduled" ? <small> {formatDate(content.publishAt)}</small> : null}
                  </td>
                  <td class="changed">{formatDate(content.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} onPage={(to) => filterTo({ page: String(to) })} />
        </>
      )}
      {storage.data ? <RoomUse label={`Texts of all sites of ${tenant.name}, every saved version counted`} room={storage.data.text} /> : null}
    </Screen>
  );
}

interface Draft {
  title: string;
  slug: string;
  language: string;
  intro: string;
  bodyMarkdown: string;
  coverImages: string;
  coverAlt: string;
  categoryIds: number[];
  tags: string;
  seoTitle: string;
  seoDescription: string;
  canonical: string;
  noindex: boolean;
}

const draftOf = (content: Content): Draft => ({
  title: content.title,
  slug: content.slug,
  language: content.language,
  intro: content.intro,
  bodyMarkdown: content.bodyMarkdown,
  coverImages: content.coverImages ?? "",
  coverAlt: content.coverAlt ?? "",
  categoryIds: content.categoryIds ?? [],
  tags: content.tags.join(", "),
  seoTitle: content.seoTitle ?? "",
  seoDescription: content.seoDescription ?? "",
  canonical: content.canonical ?? "",
  noindex: content.noindex,
});

const EMPTY_DRAFT: Draft = {
  title: "",
  slug: "",
  language: "",
  intro: "",
  bodyMarkdown: "",
  coverImages: "",
  coverAlt: "",
  categoryIds: [],
  tags: "",
  seoTitle: "",
  seoDescription: "",
  canonical: "",
  noindex: false,
};

/** The request body of a save: empty optional fields are sent as null, tags split on commas. */
/** A refusal without the empty slug's part: made from an empty title, the slug is fixed by writing the title. */
function withoutSlugRefusal(error: unknown) {
  if (!(error instanceof ApiFailure) || !("slug" in error.fields) || Object.keys(error.fields).length < 2) return error;
  const { slug: _slug, ...fields } = error.fields;
  return new ApiFailure(error.status, error.message, fields, error.suggestions);
}

const bodyOf = (draft: Draft) => ({
  title: draft.title,
  slug: draft.slug,
  language: draft.language,
  intro: draft.intro,
  bodyMarkdown: draft.bodyMarkdown,
  coverImages: draft.coverImages || null,
  coverAlt: (draft.coverImages && draft.coverAlt.trim()) || null,
  categoryIds: draft.categoryIds,
  tags: draft.tags
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean),
  seoTitle: draft.seoTitle || null,
  seoDescription: draft.seoDescription || null,
  canonical: draft.canonical || null,
  noindex: draft.noindex,
});

/** A content's editor: text with a live preview, cover, categories, SEO, publication, versions and translations. */
export function ContentEditor({ path, query }: ScreenProps) {
  const { tenant, site } = useWorkspace();
  const id = path.split("/")[2] === "new" ? null : Number(path.split("/")[2]);
  const translationOf = Number(query.get("translationOf")) || null;
  const base = `/tenants/${tenant.id}`;
  const load = useLoad(async () => {
    const [content, categories, original] = await Promise.all([
      id ? get<Content>(`${base}/contents/${id}`) : Promise.resolve(null),
      get<Category[]>(`${base}/sites/${site.id}/categories`),
      translationOf ? get<Content>(`${base}/contents/${translationOf}`) : Promise.resolve(null),
    ]);
    return { content, categories, original };
  }, [tenant.id, site.id, id, translationOf]);
  if (!load.data) return <Loading failure={load.failure} />;
  return (
    <EditorForm
      key={`${id ?? "new"}-${translationOf ?? ""}`}
      {...load.data}
      language={query.get("language")}
      arrival={arrivalOutcome(load.data.content, query.get("published"))}
    />
  );
}

/**
 * A new content's Publish creates it, publishes it and opens it at its own address (`?published=`):
 * what happened is said there, once, until something else is done.
 */
function arrivalOutcome(content: Content | null, published: string | null): string {
  if (!content || published === null) return "";
  if (content.status === "published") return "Published: the site shows it now.";
  if (content.status === "scheduled") return `Scheduled for ${formatDate(content.publishAt)}.`;
  return "Saved as a draft, but not published: try Publish again.";
}

/** What Publish sends: now, or at a time. */
type PublishRequest = { publishAt?: string };

/** A draft is saved by itself this long after the last change. */
const AUTOSAVE_DELAY_MS = 1500;

const sameDraft = (a: Draft, b: Draft) => JSON.stringify(a) === JSON.stringify(b);

/** Edits not yet saved, kept in this browser (a reload, a closed tab or a crash gives them back) until they are saved. */
interface LocalCopy {
  draft: Draft;
  at: string;
}

function readLocalCopy(key: string, saved: Draft): LocalCopy | null {
  try {
    // Written by this console (below); a copy of another shape is ignored.
    const copy = JSON.parse(localStorage.getItem(key) ?? "null") as Partial<LocalCopy> | null;
    if (!copy?.draft || typeof copy.at !== "string") return null;
    const draft = { ...saved, ...copy.draft };
    return sameDraft(draft, saved) ? null : { draft, at: copy.at };
  } catch {
    return null;
  }
}

// As the console's dates write their time ("9:08 PM"): timeStyle, not two-digit hours.
const timeOf = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { timeStyle: "short" });

type AutosaveState = { state: "idle" } | { state: "saving" } | { state: "saved"; at: string } | { state: "failed"; failure: ApiFailure };

function EditorForm(props: { content: Content | null; categories: Category[]; original: Content | null; language: string | null; arrival: string }) {
  const { tenant, site, can, userId } = useWorkspace();
  const base = `/tenants/${tenant.id}`;
  const [content, setContent] = useState(props.content);
  const seed = props.content ?? props.original;
  const initial: Draft = seed
    ? {
        ...draftOf(seed),
        ...(props.content ? {} : { language: props.language ?? site.languages.find((l) => l !== seed.language) ?? site.defaultLanguage }),
      }
    : { ...EMPTY_DRAFT, language: site.defaultLanguage };
  const storageKey = `console.unsaved.${tenant.id}.${props.content ? props.content.id : `new.${site.id}.${props.original?.id ?? ""}`}`;
  const [restored, setRestored] = useState(() => readLocalCopy(storageKey, initial));
  const [draft, setDraft] = useState<Draft>(restored?.draft ?? initial);
  const [saved, setSaved] = useState<Draft>(initial);
  // A slug typed by hand, in a copy restored from this browser too, no longer follows the title.
  const [slugTouched, setSlugTouched] = useState(
    Boolean(props.content) || (restored ? restored.draft.slug !== slugFrom(restored.draft.title, restored.draft.language) : false),
  );
  // The heading follows a save, not an autosave: a new heading takes the focus, which must stay where the person types.
  const [heading, setHeading] = useState(props.content?.title ?? "");
  const [autosave, setAutosave] = useState<AutosaveState>({ state: "idle" });
  const save = useSubmit();
  const publication = useSubmit();
  const [arrival, setArrival] = useState(props.arrival);
  // Said once: the address loses its `?published=`, so a reload or a copied link does not say it again.
  useEffect(() => {
    if (props.arrival) history.replaceState(history.state, "", location.pathname);
  }, []);
  const unsaved = !sameDraft(draft, saved);
  // Read by the leave warnings and the autosave timer, which outlive a render.
  const unsavedNow = useRef(unsaved);
  unsavedNow.current = unsaved;
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((d) => {
        const next = { ...d, [key]: value };
        // Words for one picture are wrong for another: a new cover (or none) starts without them.
        if (key === "coverImages" && value !== d.coverImages) return { ...next, coverAlt: "" };
        // An untouched slug follows the title, spelled as the content's language spells it.
        return (key === "title" || key === "language") && !slugTouched ? { ...next, slug: slugFrom(next.title, next.language) } : next;
      });
  const status = content?.status ?? "draft";
  const editable = content ? can("editor") || (content.authorId === userId && content.status === "draft" && can("author")) : can("author");
  // Only a draft saves itself: a published or scheduled content's text is what readers see (or will), changed on purpose only.
  const autosaves = Boolean(content) && editable && status === "draft";
  const failure = save.failure ?? (autosave.state === "failed" ? autosave.failure : undefined);
  const fieldError = (name: string) => failure?.fields[name];
  const slugSuggestion = failure?.suggestions.slug ?? failure?.suggestions.language;

  useEffect(() => {
    if (unsaved) localStorage.setItem(storageKey, JSON.stringify({ draft, at: new Date().toISOString() } satisfies LocalCopy));
    else localStorage.removeItem(storageKey);
  }, [draft, saved]);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (unsavedNow.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    const unguard = guardLeaving(() => !unsavedNow.current || confirm("Leave without saving? Your changes to this content are not saved yet."));
    return () => {
      window.removeEventListener("beforeunload", warn);
      unguard();
    };
  }, []);

  // Autosaves sent so far: an answer to one that a later one overtook is not taken for what is saved.
  const autosavesSent = useRef(0);
  // The content's writes, one at a time in the order made: two in flight may reach the API in either
  // order, and the older text would stay saved while the editor says the newer is.
  const writes = useRef<Promise<unknown>>(Promise.resolve());
  const inTurn = <T,>(write: () => Promise<T>): Promise<T> => {
    const next = writes.current.then(write, write);
    writes.current = next.catch(() => undefined);
    return next;
  };
  // Armed again when what is saved changes too: a save that ends with edits still unsaved leaves a timer for them.
  useEffect(() => {
    if (!autosaves || !unsaved || !content) return;
    const timer = setTimeout(() => {
      if (!unsavedNow.current) return;
      const sent = draft;
      const number = ++autosavesSent.current;
      setAutosave({ state: "saving" });
      inTurn(() => api<Content>("PUT", `${base}/contents/${content.id}/autosave`, bodyOf(sent))).then(
        (updated) => {
          if (number !== autosavesSent.current) return;
          setContent(updated);
          setSaved(sent);
          setAutosave({ state: "saved", at: updated.updatedAt });
        },
        (error: unknown) => {
          if (number === autosavesSent.current) setAutosave({ state: "failed", failure: asFailure(error) });
        },
      );
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, saved, autosaves]);

  // A refused save puts the person at the field it is about (or its message), wherever the button was.
  useEffect(() => {
    if (!save.failure) return;
    const target = document.querySelector<HTMLElement>('form.editor [aria-invalid="true"]') ?? document.getElementById("editor-outcome");
    target?.scrollIntoView({ block: "center" });
    target?.focus({ preventScroll: true });
  }, [save.failure]);

  const submit = async (sent: Draft, { stay = false } = {}): Promise<Content | undefined> => {
    // The bar says what happened last: a save's word replaces a publication's, and the other way round.
    publication.edited();
    setArrival("");
    const result = await save.run(
      () =>
        inTurn(() =>
          content
            ? api<Content>("PATCH", `${base}/contents/${content.id}`, bodyOf(sent))
            : api<Content>("POST", `${base}/contents`, {
                siteId: site.id,
                ...bodyOf(sent),
                ...(props.original ? { translationOf: props.original.translationOf ?? props.original.id } : {}),
              }),
        ).catch((error: unknown) => {
          throw sent.title.trim() || sent.slug ? error : withoutSlugRefusal(error);
        }),
      status === "published" ? "Updated: the site shows it now." : "Saved.",
    );
    if (!result) return undefined;
    setSaved(sent);
    setAutosave({ state: "idle" });
    setRestored(null);
    if (content) {
      setContent(result);
      setHeading(result.title);
    } else {
      unsavedNow.current = false;
      localStorage.removeItem(storageKey);
      if (!stay) navigate(`/contents/${result.id}`, { replace: true });
    }
    return result;
  };
  // A new content's Publish: created, then published, and opened at its address saying which. Refused
  // at its creation (a taken slug), the publication waits for the free slug the person takes.
  const publishOnCreate = useRef<PublishRequest | null>(null);
  const createAndPublish = async (sent: Draft, request: PublishRequest) => {
    publishOnCreate.current = request;
    const created = await submit(sent, { stay: true });
    if (!created) return;
    publishOnCreate.current = null;
    const published = await publication.run(() => api<Content>("POST", `${base}/contents/${created.id}/publish`, request));
    navigate(`/contents/${created.id}?published=${published ? "yes" : "no"}`, { replace: true });
  };
  const onSubmit = (e: Event) => {
    e.preventDefault();
    publishOnCreate.current = null;
    void submit(draft);
  };
  const takeSlug = (slug: string) => {
    setSlugTouched(true);
    const next = { ...draft, slug };
    setDraft(next);
    void (!content && publishOnCreate.current ? createAndPublish(next, publishOnCreate.current) : submit(next));
  };
  const discardRestored = () => {
    // Gone from this browser at once: a tab closed right after the click must not bring them back.
    localStorage.removeItem(storageKey);
    setDraft(saved);
    setRestored(null);
  };
  const changed = (next: Content) => {
    setContent(next);
    setDraft(draftOf(next));
    setSaved(draftOf(next));
  };

  const saveState =
    autosave.state === "saving"
      ? "Saving…"
      : autosave.state === "failed"
        ? `Not saved: ${autosave.failure.message}`
        : unsaved
          ? autosaves
            ? "Unsaved changes: saving in a moment"
            : `Unsaved changes${content ? `, kept in this browser until you ${status === "published" ? "update" : "save"}` : ""}`
          : autosave.state === "saved"
            ? `Saved at ${timeOf(autosave.at)}`
            : content
              ? `Version ${content.version}, saved ${formatDate(content.updatedAt)}`
              : "";
  const title = content ? `Edit: ${heading}` : props.original ? `Translate: ${props.original.title}` : "New content";
  return (
    <Screen title={title}>
      <div class="editor-bar">
        <p class="meta">
          {content ? <span class={`badge ${status}`}>{status}</span> : null}
          {content ? <ContentId id={content.id} /> : null}
          {content?.status === "scheduled" ? <span>public from {formatDate(content.publishAt)}</span> : null}
          <span class="save-state" role="status">
            {saveState}
          </span>
        </p>
        <div class="actions">
          {editable ? (
            <button class={status === "draft" && can("editor") ? "" : "primary"} type="submit" form="editor-form" disabled={save.busy}>
              {!content ? "Create draft" : status === "published" ? "Update" : "Save"}
            </button>
          ) : null}
          {can("editor") ? (
            <Publication
              content={content}
              title={draft.title}
              run={(work, success) => {
                save.edited();
                setArrival("");
                return publication.run(work, success);
              }}
              busy={publication.busy || save.busy}
              failure={publication.failure}
              saveFirst={async () => (content && !unsavedNow.current ? content : submit(draft))}
              publishNew={(request) => createAndPublish(draft, request)}
              unsaved={unsaved}
              onChanged={changed}
            />
          ) : null}
          {content && can("editor") ? <PreviewButton content={content} /> : null}
          {content?.status === "published" ? (
            <a class="button" href={publicUrl(site, saved)} target="_blank" rel="noopener">
              View on the site
            </a>
          ) : null}
        </div>
        <div id="editor-outcome" tabindex={-1}>
          <Outcome failure={save.failure ?? publication.failure} done={save.done || publication.done || arrival} />
        </div>
      </div>
      {restored ? (
        <p class="alert notice" role="status">
          Your unsaved changes of {formatDate(restored.at)}, kept in this browser, are back.{" "}
          <button type="button" onClick={discardRestored}>
            Discard them
          </button>
        </p>
      ) : null}
      {props.original && !content ? (
        <p class="alert notice">
          This starts as a copy of the {languageName(props.original.language) ?? props.original.language} version: write its title, text, tags and the
          words for its cover in {languageName(draft.language) ?? draft.language} before publishing it.
        </p>
      ) : null}
      {/* Said before the fields a reader might try, where an editor's note on saving goes after them. */}
      {!editable ? (
        <p id="editor-note" class="alert notice">
          Your role lets you read this content, not change it.
        </p>
      ) : null}
      <form id="editor-form" class="editor" onSubmit={onSubmit} aria-describedby="editor-note">
        <fieldset disabled={!editable}>
          <legend class="visually-hidden">Text</legend>
          <TextField label="Title" name="title" value={draft.title} onValue={set("title")} error={fieldError("title")} required />
          <div class="row">
            <TextField
              label="Slug"
              name="slug"
              value={draft.slug}
              onValue={(v) => (setSlugTouched(true), set("slug")(v))}
              error={fieldError("slug") ?? fieldError("language")}
              hint="The address: lower-case words joined by dashes"
              required
            />
            <SelectField
              label="Language"
              name="language"
              value={draft.language}
              onValue={set("language")}
              options={site.languages.map((l): [string, string] => [l, `${languageName(l) ?? l} (${l})`])}
              error={fieldError("language")}
            />
          </div>
          {slugSuggestion && slugSuggestion !== draft.slug ? (
            <p class="suggestion">
              <button type="button" onClick={() => takeSlug(slugSuggestion)}>
                Use {slugSuggestion}
              </button>{" "}
              <small>a free slug in {languageName(draft.language) ?? draft.language}, saved at once</small>
            </p>
          ) : null}
          <TextField label="Intro" name="intro" value={draft.intro} onValue={set("intro")} error={fieldError("intro")} multiline={2} />
          <MarkdownField value={draft.bodyMarkdown} onValue={set("bodyMarkdown")} error={fieldError("bodyMarkdown")} />
          <CoverField
            value={draft.coverImages}
            onValue={set("coverImages")}
            error={fieldError("coverImages")}
            alt={draft.coverAlt}
            onAlt={set("coverAlt")}
            altError={fieldError("coverAlt")}
          />
          <fieldset class="group">
            <legend>Categories</legend>
            {props.categories.length ? (
              inTreeOrder(props.categories).map(({ category, depth }) => (
                <div class="nested" style={`--depth: ${depth}`}>
                  <CheckField
                    label={category.name}
                    name="categoryIds"
                    checked={draft.categoryIds.includes(category.id)}
                    onValue={(on) =>
                      set("categoryIds")(on ? [...draft.categoryIds, category.id] : draft.categoryIds.filter((c) => c !== category.id))
                    }
                  />
                </div>
              ))
            ) : (
              <p>No categories yet.</p>
            )}
          </fieldset>
          <TextField label="Tags" name="tags" value={draft.tags} onValue={set("tags")} error={fieldError("tags")} hint="Separated by commas" />
          <SeoFields draft={draft} set={set} fieldError={fieldError} />
        </fieldset>
        {editable ? (
          <p id="editor-note" class="hint">
            {autosaves
              ? "A draft saves itself as you write; Save keeps a version you can compare and restore."
              : "Each save keeps a version you can compare and restore."}
          </p>
        ) : null}
      </form>
      {content ? (
        <>
          {can("editor") ? <MoveToTrash content={content} published={status === "published"} /> : null}
          <Translations content={content} />
          <Versions content={content} editable={editable} onRestored={changed} />
        </>
      ) : null}
    </Screen>
  );
}

/** A content's id, which other screens and the API ask for, with a button that copies it. */
function ContentId(props: { id: number }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(String(props.id)).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <span class="content-id">
      id <code>{props.id}</code>{" "}
      <button type="button" class="small" onClick={() => void copy()}>
        {copied ? "Copied" : "Copy"}
        <span class="visually-hidden"> the id</span>
      </button>
    </span>
  );
}

/**
 * Opens the content on its site with the site's theme, whatever its status, through a signed link
 * that lasts a day. The tab is opened at the click (a popup blocker allows that) and sent to the link once it arrives.
 */
function PreviewButton(props: { content: Content }) {
  const { tenant } = useWorkspace();
  const action = useSubmit();
  const link = () => api<{ url: string; expiresAt: string }>("POST", `/tenants/${tenant.id}/contents/${props.content.id}/preview-link`);
  const open = async () => {
    const tab = window.open("", "_blank");
    const made = await action.run(link);
    if (!tab) return;
    if (!made) return tab.close();
    // The site must not reach back into the console through window.opener.
    tab.opener = null;
    tab.location.href = made.url;
  };
  // The address a preview ends on is the content's own, which shows nothing to others until it is published: a colleague needs the link itself.
  const copy = () =>
    action.run(async () => {
      const made = await link();
      await navigator.clipboard.writeText(made.url);
      return made;
    }, "");
  const [copied, setCopied] = useState<string>();
  return (
    <>
      <button type="button" disabled={action.busy} onClick={() => void open()}>
        Preview on site
      </button>
      <button
        type="button"
        disabled={action.busy}
        onClick={() =>
          void copy().then(
            (made) => made && setCopied(`Preview link copied: anyone who has it sees this content until ${formatDate(made.expiresAt)}.`),
          )
        }
      >
        Copy preview link
      </button>
      {copied && !action.failure ? <span role="status"> {copied}</span> : null}
      {action.failure ? <span role="alert"> {action.failure.message}</span> : null}
    </>
  );
}

/** A content's address on its site: the default language at /<slug>, the others at /<lang>/<slug>. */
const publicUrl = (site: Site, draft: { slug: string; language: string }) =>
  siteAddress(site, draft.language === site.defaultLanguage ? `/${draft.slug}` : `/${draft.language}/${draft.slug}`);

/**
 * Markdown with a live preview, rendered as the site renders it (markdown-it, raw HTML shown as text).
 * An image chosen, pasted or dropped into the text is uploaded to the site's media and its Markdown
 * inserted where the cursor was.
 */
function MarkdownField(props: { value: string; onValue: (v: string) => void; error?: string }) {
  const { tenant, site } = useWorkspace();
  const id = useId();
  const upload = useSubmit();
  const [html, setHtml] = useState("");
  // The text as it is when an upload ends, not when it began: the person may type meanwhile.
  const latest = useRef(props.value);
  latest.current = props.value;
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void import("markdown-it").then(({ default: markdownIt }) => {
        if (current) setHtml(markdownIt({ html: false, linkify: true }).render(props.value));
      });
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [props.value]);

  const insertImages = async (files: File[]) => {
    const images = files.filter((file) => IMAGE_TYPES.includes(file.type));
    if (!images.length) return;
    const textarea = document.getElementById(id) as HTMLTextAreaElement | null;
    const at = textarea?.selectionEnd ?? latest.current.length;
    const stored = await upload.run(
      async () => {
        const list: Media[] = [];
        for (const file of images) list.push(await uploadMedia<Media>(tenant.id, site.id, file));
        return list;
      },
      // The file's name stands in for a description until the writer gives one: it is selected, to be typed over.
      images.length === 1
        ? `Inserted ${images[0]!.name}: type what it shows over the selected words, for readers who cannot see it.`
        : `Inserted ${images.map((file) => file.name).join(", ")}: write what each shows between its [ and ], for readers who cannot see them.`,
    );
    if (!stored) return;
    const text = latest.current;
    const before = text.slice(0, Math.min(at, text.length));
    const after = text.slice(before.length);
    // An image is a paragraph of its own: blank lines around it, as many as are missing.
    const opening = before === "" || before.endsWith("\n\n") ? "" : before.endsWith("\n") ? "\n" : "\n\n";
    const closing = after === "" ? "\n" : after.startsWith("\n\n") ? "" : after.startsWith("\n") ? "\n" : "\n\n";
    const markdown = stored.map((media) => `![${altFrom(media.filename)}](${media.url})`).join("\n\n");
    const inserted = `${opening}${markdown}${closing}`;
    props.onValue(before + inserted + after);
    // The first image's description, selected: what the writer types next replaces the file's name.
    const described = before.length + opening.length + "![".length;
    setTimeout(() => {
      textarea?.focus();
      textarea?.setSelectionRange(described, described + altFrom(stored[0]!.filename).length);
    });
  };
  const describedBy = [`${id}-hint`, props.error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div class="markdown">
      <div class={`field${props.error ? " invalid" : ""}`}>
        <label for={id}>Body (Markdown)</label>
        <textarea
          id={id}
          name="bodyMarkdown"
          rows={16}
          value={props.value}
          aria-invalid={props.error ? "true" : undefined}
          aria-describedby={describedBy}
          onInput={(e: Event) => props.onValue((e.target as HTMLTextAreaElement).value)}
          onPaste={(e: ClipboardEvent) => {
            const files = Array.from(e.clipboardData?.files ?? []);
            if (!files.length) return;
            e.preventDefault();
            void insertImages(files);
          }}
          onDragOver={(e: DragEvent) => {
            if (e.dataTransfer?.types.includes("Files")) e.preventDefault();
          }}
          onDrop={(e: DragEvent) => {
            const files = Array.from(e.dataTransfer?.files ?? []);
            if (!files.length) return;
            e.preventDefault();
            void insertImages(files);
          }}
        />
        <small id={`${id}-hint`} class="hint">
          Paste or drop an image into the text, or{" "}
          <label class="button small">
            Insert image
            <input
              class="visually-hidden"
              type="file"
              name="bodyImage"
              accept={IMAGE_TYPES.join(",")}
              multiple
              onChange={(e: Event) => {
                const input = e.target as HTMLInputElement;
                void insertImages(Array.from(input.files ?? [])).finally(() => (input.value = ""));
              }}
            />
          </label>
        </small>
        {props.error ? (
          <small id={`${id}-error`} class="field-error">
            {props.error}
          </small>
        ) : null}
        <Outcome failure={upload.failure} done={upload.busy ? "Uploading…" : upload.done} />
      </div>
      <div class="preview">
        <h2 class="label" id="preview-label">
          Preview
        </h2>
        <div class="prose" aria-labelledby="preview-label" dangerouslySetInnerHTML={{ __html: html }} />
      </div>
    </div>
  );
}

const IMAGE_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"];

/** An image's alternative text until the person writes a better one: its file name in words. */
const altFrom = (filename: string) => filename.replace(/\.[a-z0-9]+$/i, "").replace(/[-_]+/g, " ");

/**
 * The cover: an image dropped here (or chosen from the computer) is uploaded to the media library and linked; one already there is
 * chosen from it. Once there is one, what it shows in words (its alt).
 */
function CoverField(props: {
  value: string;
  onValue: (v: string) => void;
  error?: string;
  alt: string;
  onAlt: (v: string) => void;
  altError?: string;
}) {
  const { tenant, site } = useWorkspace();
  const upload = useSubmit();
  const [browsing, setBrowsing] = useState(false);
  const send = async (file: File | undefined) => {
    if (!file) return;
    const stored = await upload.run(() => uploadMedia<Media>(tenant.id, site.id, file), `Uploaded ${file.name}.`);
    if (stored) props.onValue(stored.url);
  };
  return (
    <div class={`field${props.error ? " invalid" : ""}`}>
      <span class="label" aria-hidden="true">
        Cover image
      </span>
      <DropZone
        label="Cover image"
        button="Choose an image"
        name="cover"
        accept="image/png,image/jpeg,image/webp,image/gif"
        onFiles={(files) => send(files[0])}
      >
        {props.value ? <img src={props.value} alt="The cover" /> : <p>Drop an image here, or</p>}
        {props.value ? (
          <button type="button" onClick={() => props.onValue("")}>
            Remove the cover
          </button>
        ) : null}
      </DropZone>
      {props.value ? (
        <TextField
          label="What the cover shows"
          name="coverAlt"
          value={props.alt}
          onValue={props.onAlt}
          error={props.altError}
          hint="In words, for readers who cannot see it (its alt text): “A red bicycle against a blue door”. Left empty, the cover counts as decoration and screen readers pass over it"
        />
      ) : null}
      <p class="from-media">
        <button type="button" aria-expanded={browsing} onClick={() => setBrowsing(!browsing)}>
          {browsing ? "Close the images in Media" : "Choose one already in Media"}
        </button>
      </p>
      {browsing ? (
        <CoverFromMedia
          value={props.value}
          onChosen={(image) => {
            props.onValue(image?.url ?? "");
            // The words written for the image on the Media screen are the cover's to start with.
            if (image?.altText) props.onAlt(image.altText);
          }}
        />
      ) : null}
      <Outcome failure={upload.failure} done={upload.done} />
      {props.error ? <small class="field-error">{props.error}</small> : null}
    </div>
  );
}

/** The site's images to take a cover from, without uploading a copy; loaded when the person asks for them. */
function CoverFromMedia(props: { value: string; onChosen: (image: Media | undefined) => void }) {
  const { tenant, site } = useWorkspace();
  const load = useLoad(() => get<Media[]>(`/tenants/${tenant.id}/sites/${site.id}/media`), [tenant.id, site.id]);
  if (!load.data) return <Loading failure={load.failure} />;
  const images = load.data.filter(isImage);
  const chosen = images.find((image) => image.url === props.value);
  return (
    <ImagePicker
      name="cover-from-media"
      legend="Images in Media"
      images={images}
      value={chosen ? String(chosen.id) : ""}
      onValue={(id) => props.onChosen(images.find((image) => String(image.id) === id))}
    />
  );
}

/** SEO fields and how a search result would show the page. */
function SeoFields(props: {
  draft: Draft;
  set: <K extends keyof Draft>(key: K) => (value: Draft[K]) => void;
  fieldError: (name: string) => string | undefined;
}) {
  const { site } = useWorkspace();
  const { draft, set, fieldError } = props;
  // Before a title is typed, the pattern shows where it will go.
  const title = site.seoTitlePattern.replace("{title}", draft.seoTitle || draft.title || "(the title)").replace("{site}", site.name);
  const description = draft.seoDescription || draft.intro || site.seoDescription || "";
  return (
    <fieldset class="group">
      <legend>Search engines</legend>
      <TextField
        label="SEO title"
        name="seoTitle"
        value={draft.seoTitle}
        onValue={set("seoTitle")}
        error={fieldError("seoTitle")}
        hint={`Shown as: ${title}`}
      />
      <TextField
        label="SEO description"
        name="seoDescription"
        value={draft.seoDescription}
        onValue={set("seoDescription")}
        error={fieldError("seoDescription")}
        multiline={2}
      />
      <TextField
        label="Canonical URL"
        name="canonical"
        value={draft.canonical}
        onValue={set("canonical")}
        error={fieldError("canonical")}
        hint="Only when another address is the original: a full address (https://…) or a path of this site (/…)"
      />
      <CheckField label="Hide from search engines (noindex)" checked={draft.noindex} onValue={set("noindex")} />
      <figure class="serp" aria-label="Search result preview">
        <cite>{draft.canonical || publicUrl(site, draft)}</cite>
        <strong>{title.length > 60 ? `${title.slice(0, 59)}…` : title}</strong>
        <span>{description.length > 160 ? `${description.slice(0, 159)}…` : description}</span>
        {draft.noindex ? <em>Not shown by search engines: noindex</em> : null}
      </figure>
    </fieldset>
  );
}

/**
 * Publish and schedule in one step: "Publish" (or "Reschedule") opens a small dialog, now or at a
 * date and time in the person's time zone, confirmed by a button that says what will happen.
 * What is published offers no "Publish now": it is updated by Update, or taken back after a question.
 * A new content is created and published by `publishNew`.
 */
function Publication(props: {
  content: Content | null;
  title: string;
  unsaved: boolean;
  /** The content as saved with the person's changes, or nothing when the save was refused (it says why). */
  saveFirst: () => Promise<Content | undefined>;
  publishNew: (request: PublishRequest) => Promise<void>;
  run: ReturnType<typeof useSubmit>["run"];
  busy: boolean;
  failure?: ApiFailure;
  onChanged: (content: Content) => void;
}) {
  const { tenant, site } = useWorkspace();
  const [open, setOpen] = useState(false);
  const [when, setWhen] = useState<"now" | "later">(props.content?.status === "scheduled" ? "later" : "now");
  const [at, setAt] = useState(isoToLocalInput(props.content?.publishAt ?? new Date(Date.now() + 24 * 3600_000).toISOString()));
  const [refusal, setRefusal] = useState("");
  const pathOf = (content: Content) => `/tenants/${tenant.id}/contents/${content.id}`;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const status = props.content?.status ?? "draft";
  const atIso = at ? localInputToIso(at) : "";
  const close = () => {
    setOpen(false);
    setRefusal("");
  };
  // The dialog takes the focus when it opens (on the choice made), keeps Tab inside it, and gives the
  // focus back when it closes: to its button, or to Unpublish once the content is published.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) document.querySelector<HTMLElement>('.publish-dialog input[name="when"]:checked')?.focus();
    // A refused save has put the person at its field: the focus stays there.
    else if (wasOpen.current && !document.querySelector('form.editor [aria-invalid="true"]'))
      (document.getElementById("publish-button") ?? document.getElementById("take-back-button"))?.focus({ preventScroll: true });
    wasOpen.current = open;
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") return close();
      if (e.key === "Tab") keepTabInside(e, document.querySelector<HTMLElement>(".publish-dialog"));
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const confirmed = async (e: Event) => {
    e.preventDefault();
    if (when === "later" && !(atIso > new Date().toISOString())) return setRefusal("Pick a time in the future, or publish now.");
    setRefusal("");
    const body: PublishRequest = when === "now" ? {} : { publishAt: atIso };
    if (!props.content) {
      await props.publishNew(body);
      return close();
    }
    // Unsaved changes are saved first: what is published is what the person sees.
    const saved = await props.saveFirst();
    if (!saved) return close();
    const done = when === "now" ? "Published: the site shows it now." : `Scheduled for ${formatDate(atIso)} (${zone}).`;
    const changed = await props.run(() => api<Content>("POST", `${pathOf(saved)}/publish`, body), done);
    if (!changed) return;
    // Published first, closed after: the focus then goes to Unpublish, the button there is now.
    props.onChanged(changed);
    close();
  };
  const takeBack = async (content: Content) => {
    const linking = status === "published" ? await menuItemsLinkingTo(tenant.id, site.id, content.id) : [];
    const menus = leftOutOfMenus(linking, "until it is published again");
    const question =
      status === "published"
        ? `Unpublish “${props.title}”? It leaves the site within seconds and becomes a draft again.${menus}`
        : `Unschedule “${props.title}”? It will not be published on ${formatDate(content.publishAt)} and becomes a draft again.`;
    if (!confirm(question)) return;
    const changed = await props.run(
      () => api<Content>("POST", `${pathOf(content)}/unpublish`),
      status === "published" ? "Unpublished: a draft again." : "Unscheduled: a draft again.",
    );
    if (!changed) return;
    props.onChanged(changed);
    // Its button is gone with the status: the focus goes to Publish, the one there is now.
    requestAnimationFrame(() => document.getElementById("publish-button")?.focus({ preventScroll: true }));
  };

  return (
    <>
      {status !== "published" ? (
        <button id="publish-button" type="button" class="primary" aria-haspopup="dialog" disabled={props.busy} onClick={() => setOpen(true)}>
          {status === "scheduled" ? "Reschedule" : "Publish"}
        </button>
      ) : null}
      {props.content && status !== "draft" ? (
        <button id="take-back-button" type="button" disabled={props.busy} onClick={() => props.content && void takeBack(props.content)}>
          {status === "published" ? "Unpublish" : "Unschedule"}
        </button>
      ) : null}
      {open ? (
        // Drawn by the page, not a <dialog>: the editor's bar re-renders around it, and a moved <dialog> stops being modal.
        <div class="modal-backdrop" onClick={(e: MouseEvent) => e.target === e.currentTarget && close()}>
          <div class="publish-dialog" role="dialog" aria-modal="true" aria-labelledby="publish-heading">
            <form onSubmit={(e: Event) => void confirmed(e)}>
              <h2 id="publish-heading">Publish “{props.title}”</h2>
              <fieldset>
                <legend>When</legend>
                <label class="check">
                  <input type="radio" name="when" value="now" checked={when === "now"} onChange={() => setWhen("now")} /> Now
                </label>
                <label class="check">
                  <input type="radio" name="when" value="later" checked={when === "later"} onChange={() => setWhen("later")} /> At a date and time
                </label>
              </fieldset>
              {when === "later" ? (
                <TextField
                  label={`Date and time, your time (${zone})`}
                  name="publishAt"
                  type="datetime-local"
                  value={at}
                  onValue={(value) => {
                    setAt(value);
                    setRefusal("");
                  }}
                  error={refusal || props.failure?.fields.publishAt}
                  required
                />
              ) : null}
              {/* The site dates its pages in its own zone (Settings): an editor elsewhere sees what its readers will. */}
              {when === "later" && atIso && site.timezone !== zone ? (
                <p class="hint" id="site-time">
                  The site's time ({site.timezone}): {formatDate(atIso, site.timezone)}
                </p>
              ) : null}
              {props.unsaved ? <p class="hint">Your unsaved changes are saved first.</p> : null}
              {props.failure && !props.failure.fields.publishAt ? (
                <p class="alert error" role="alert">
                  {props.failure.message}
                </p>
              ) : null}
              <div class="actions">
                <button type="submit" class="primary" disabled={props.busy}>
                  {when === "now" ? "Publish now" : atIso ? `Schedule for ${formatDate(atIso)}` : "Schedule"}
                </button>
                <button type="button" onClick={close}>
                  Cancel
                </button>
              </div>
            </form>
          </div>
        </div>
      ) : null}
    </>
  );
}

/** The content in the site's other languages: open one, or start one that is missing. */
function Translations(props: { content: Content }) {
  const { tenant, site, can } = useWorkspace();
  const original = props.content.translationOf ?? props.content.id;
  // The group alone (an original and its translations, one a language), however many contents the site has.
  const load = useLoad(
    () => get<Page<Content>>(`/tenants/${tenant.id}/contents?siteId=${site.id}&translationsOf=${original}&size=100`),
    [tenant.id, site.id, props.content.id],
  );
  if (site.languages.length < 2) return null;
  const group = (load.data?.items ?? []).filter((c) => (c.translationOf ?? c.id) === original);
  return (
    <section class="panel" aria-labelledby="translations">
      <h2 id="translations">Translations</h2>
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <ul class="plain">
          {site.languages.map((language) => {
            const found = group.find((c) => c.language === language);
            return (
              <li>
                <strong>{languageName(language) ?? language}</strong>{" "}
                {found ? (
                  <>
                    {found.id === props.content.id ? "this content" : <a href={`${CONSOLE_BASE}/contents/${found.id}`}>{found.title}</a>}{" "}
                    <span class={`badge ${found.status}`}>{found.status}</span>
                  </>
                ) : can("author") ? (
                  <a href={`${CONSOLE_BASE}/contents/new?translationOf=${original}&language=${language}`}>
                    Translate into {languageName(language) ?? language}
                  </a>
                ) : (
                  "none"
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/** Saved versions: compare one with the current text, or restore it as a new save. */
function Versions(props: { content: Content; editable: boolean; onRestored: (content: Content) => void }) {
  const { tenant } = useWorkspace();
  const path = `/tenants/${tenant.id}/contents/${props.content.id}/versions`;
  const load = useLoad(() => get<Version[]>(path), [path, props.content.version, props.content.updatedAt]);
  const [compared, setCompared] = useState<VersionText | null>(null);
  const action = useSubmit();
  const current = textOf(props.content);
  const lines = compared ? diffLines(textOf(compared), current) : null;
  return (
    <section class="panel" aria-labelledby="versions">
      <h2 id="versions">Versions</h2>
      <p class="hint">The newest {VERSIONS_KEPT} versions are kept: a save past them lets the oldest go.</p>
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <table>
          <TableHead caption="Versions" columns={["Version", "Title", "Saved", ""]} />
          <tbody>
            {load.data.map((version) => (
              <tr>
                <td>{version.version}</td>
                <td>{version.title}</td>
                <td>{formatDate(version.savedAt)}</td>
                <td class="actions">
                  <button
                    type="button"
                    onClick={async () => setCompared((await action.run(() => get<VersionText>(`${path}/${version.version}`))) ?? null)}
                  >
                    Compare v{version.version} with the current text
                  </button>
                  {props.editable && version.version !== props.content.version ? (
                    <button
                      type="button"
                      onClick={async () => {
                        // What readers see changes at once: asked first, as Unpublish is.
                        const live = props.content.status === "published";
                        if (live && !confirm(`Restore version ${version.version} of “${props.content.title}”? The site shows its text at once.`))
                          return;
                        const restored = await action.run(
                          () => api<Content>("POST", `${path}/${version.version}/restore`),
                          live
                            ? `Restored version ${version.version} as a new version: the site shows it now.`
                            : `Restored version ${version.version} as a new version.`,
                        );
                        if (restored) props.onRestored(restored);
                      }}
                    >
                      Restore v{version.version}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {compared ? (
        <figure class="diff" aria-label={`Changes from version ${compared.version} to the current text`}>
          <figcaption>
            Version {compared.version} → current: <span class="removed">removed</span> and <span class="added">added</span> lines
          </figcaption>
          {lines ? (
            <pre>
              {lines.map((line) => (
                <span class={line.kind}>
                  <span class="visually-hidden">{line.kind === "added" ? "added: " : line.kind === "removed" ? "removed: " : ""}</span>
                  {line.kind === "added" ? "+ " : line.kind === "removed" ? "- " : "  "}
                  {line.text}
                  {"\n"}
                </span>
              ))}
            </pre>
          ) : (
            <p>The texts are too long to compare line by line here.</p>
          )}
        </figure>
      ) : null}
    </section>
  );
}

const textOf = (v: { title: string; intro: string; bodyMarkdown: string }) => `# ${v.title}\n\n${v.intro}\n\n${v.bodyMarkdown}`;
