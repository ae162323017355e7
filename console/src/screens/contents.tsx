import { useEffect, useState } from "hono/jsx/dom";
import { slugFrom } from "../../../src/content/slugs";
import { api, get, type Site, type Category, type Content, type ContentStatus, type Media, type Page, type Version, type VersionText } from "../api";
import { diffLines } from "../diff";
import { CONSOLE_BASE, navigate } from "../router";
import { MoveToTrash } from "./trash";
import { siteAddress, useWorkspace } from "../session";
import {
  CheckField,
  DropZone,
  formatDate,
  isoToLocalInput,
  Loading,
  localInputToIso,
  Outcome,
  Screen,
  SelectField,
  TextField,
  useLoad,
  useSubmit,
  TableHead,
} from "../ui";
import type { ScreenProps } from "./index";

const STATUSES: ContentStatus[] = ["draft", "scheduled", "published"];
const PAGE_SIZE = 20;

export function ContentsScreen({ query }: ScreenProps) {
  const { tenant, site, can } = useWorkspace();
  const status = query.get("status") ?? "";
  const page = Number(query.get("page") ?? 1) || 1;
  const load = useLoad(
    () => get<Page<Content>>(`/tenants/${tenant.id}/contents?siteId=${site.id}&page=${page}&size=${PAGE_SIZE}${status ? `&status=${status}` : ""}`),
    [tenant.id, site.id, status, page],
  );
  const filterTo = (next: Record<string, string>) => {
    const params = new URLSearchParams({ ...(status ? { status } : {}), ...next });
    for (const [k, v] of [...params]) if (!v) params.delete(k);
    navigate(`/contents${params.size ? `?${params}` : ""}`);
  };
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
      </div>
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.items.length === 0 ? (
        <p>No contents{status ? ` with status ${status}` : ""} yet.</p>
      ) : (
        <>
          <table>
            <TableHead columns={["Title", "Language", "Status", "Changed"]} />
            <tbody>
              {load.data.items.map((content) => (
                <tr>
                  <td>
                    <a href={`${CONSOLE_BASE}/contents/${content.id}`}>{content.title}</a>
                  </td>
                  <td>{content.language}</td>
                  <td>
                    <span class={`badge ${content.status}`}>{content.status}</span>
                    {content.status === "scheduled" ? <small> {formatDate(content.publishAt)}</small> : null}
                  </td>
                  <td>{formatDate(content.updatedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav class="pager" aria-label="Pages">
            <button type="button" disabled={page <= 1} onClick={() => filterTo({ page: String(page - 1) })}>
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button type="button" disabled={page >= pages} onClick={() => filterTo({ page: String(page + 1) })}>
              Next
            </button>
          </nav>
        </>
      )}
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
  categoryIds: content.categoryIds ?? [],
  tags: content.tags.join(", "),
  seoTitle: content.seoTitle ?? "",
  seoDescription: content.seoDescription ?? "",
  canonical: content.canonical ?? "",
  noindex: content.noindex,
});

/** The request body of a save: empty optional fields are sent as null, tags split on commas. */
const bodyOf = (draft: Draft) => ({
  title: draft.title,
  slug: draft.slug,
  language: draft.language,
  intro: draft.intro,
  bodyMarkdown: draft.bodyMarkdown,
  coverImages: draft.coverImages || null,
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
  return <EditorForm key={`${id ?? "new"}-${translationOf ?? ""}`} {...load.data} language={query.get("language")} onSaved={load.reload} />;
}

function EditorForm(props: {
  content: Content | null;
  categories: Category[];
  original: Content | null;
  language: string | null;
  onSaved: () => void;
}) {
  const { tenant, site, can, userId } = useWorkspace();
  const base = `/tenants/${tenant.id}`;
  const seed = props.content ?? props.original;
  const [draft, setDraft] = useState<Draft>(
    seed
      ? {
          ...draftOf(seed),
          ...(props.content ? {} : { language: props.language ?? site.languages.find((l) => l !== seed.language) ?? site.defaultLanguage }),
        }
      : {
          ...draftOf({
            title: "",
            slug: "",
            language: site.defaultLanguage,
            intro: "",
            bodyMarkdown: "",
            coverImages: null,
            tags: [],
            seoTitle: null,
            seoDescription: null,
            canonical: null,
            noindex: false,
          } as unknown as Content),
        },
  );
  const [slugTouched, setSlugTouched] = useState(Boolean(props.content));
  const save = useSubmit();
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) =>
      setDraft((d) => ({ ...d, [key]: value, ...(key === "title" && !slugTouched ? { slug: slugFrom(String(value)) } : {}) }));
  const content = props.content;
  const editable = content ? can("editor") || (content.authorId === userId && content.status === "draft" && can("author")) : can("author");

  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const saved = await save.run(
      () =>
        content
          ? api<Content>("PATCH", `${base}/contents/${content.id}`, bodyOf(draft))
          : api<Content>("POST", `${base}/contents`, {
              siteId: site.id,
              ...bodyOf(draft),
              ...(props.original ? { translationOf: props.original.translationOf ?? props.original.id } : {}),
            }),
      "Saved.",
    );
    if (saved && !content) navigate(`/contents/${saved.id}`, { replace: true });
    else if (saved) props.onSaved();
  };

  return (
    <Screen title={content ? `Edit: ${content.title}` : props.original ? `Translate: ${props.original.title}` : "New content"}>
      {content ? (
        <p class="meta">
          <span class={`badge ${content.status}`}>{content.status}</span> version {content.version}, changed {formatDate(content.updatedAt)}
          {content.status === "scheduled" ? ` · public from ${formatDate(content.publishAt)}` : ""}
          {content.status === "published" ? (
            <>
              {" · "}
              <a href={publicUrl(site, draft)} target="_blank" rel="noopener">
                View on the site
              </a>
            </>
          ) : null}
          {can("editor") ? (
            <>
              {" · "}
              <PreviewButton content={content} />
            </>
          ) : null}
        </p>
      ) : null}
      <form class="editor" onSubmit={onSubmit} aria-describedby="editor-note">
        <Outcome failure={save.failure} done={save.done} />
        <fieldset disabled={!editable}>
          <legend class="visually-hidden">Text</legend>
          <TextField label="Title" name="title" value={draft.title} onValue={set("title")} error={save.fieldError("title")} required />
          <div class="row">
            <TextField
              label="Slug"
              name="slug"
              value={draft.slug}
              onValue={(v) => (setSlugTouched(true), set("slug")(v))}
              error={save.fieldError("slug")}
              hint="The address: lower-case words joined by dashes"
              required
            />
            <SelectField
              label="Language"
              name="language"
              value={draft.language}
              onValue={set("language")}
              options={site.languages.map((l): [string, string] => [l, l])}
              error={save.fieldError("language")}
            />
          </div>
          <TextField label="Intro" name="intro" value={draft.intro} onValue={set("intro")} error={save.fieldError("intro")} multiline={2} />
          <MarkdownField value={draft.bodyMarkdown} onValue={set("bodyMarkdown")} error={save.fieldError("bodyMarkdown")} />
          <CoverField value={draft.coverImages} onValue={set("coverImages")} error={save.fieldError("coverImages")} />
          <fieldset class="group">
            <legend>Categories</legend>
            {props.categories.length ? (
              props.categories.map((category) => (
                <CheckField
                  label={category.name}
                  name="categoryIds"
                  checked={draft.categoryIds.includes(category.id)}
                  onValue={(on) => set("categoryIds")(on ? [...draft.categoryIds, category.id] : draft.categoryIds.filter((c) => c !== category.id))}
                />
              ))
            ) : (
              <p>No categories yet.</p>
            )}
          </fieldset>
          <TextField label="Tags" name="tags" value={draft.tags} onValue={set("tags")} error={save.fieldError("tags")} hint="Separated by commas" />
          <SeoFields draft={draft} set={set} fieldError={save.fieldError} />
        </fieldset>
        <p id="editor-note" class="hint">
          {editable ? "Each save keeps a version you can compare and restore." : "Your role lets you read this content, not change it."}
        </p>
        {editable ? (
          <button class="primary" type="submit" disabled={save.busy}>
            {content ? "Save" : "Create draft"}
          </button>
        ) : null}
      </form>
      {content ? (
        <>
          {can("editor") ? <Publication content={content} onChanged={props.onSaved} /> : null}
          {can("editor") ? <MoveToTrash content={content} /> : null}
          <Translations content={content} />
          <Versions content={content} editable={editable} onRestored={props.onSaved} />
        </>
      ) : null}
    </Screen>
  );
}

/**
 * Opens the content on its site with the site's theme, whatever its status, through a signed link
 * that lasts a day. The tab is opened at the click (a popup blocker allows that) and sent to the link once it arrives.
 */
function PreviewButton(props: { content: Content }) {
  const { tenant } = useWorkspace();
  const action = useSubmit();
  const open = async () => {
    const tab = window.open("", "_blank");
    const link = await action.run(() => api<{ url: string }>("POST", `/tenants/${tenant.id}/contents/${props.content.id}/preview-link`));
    if (!tab) return;
    if (!link) return tab.close();
    // The site must not reach back into the console through window.opener.
    tab.opener = null;
    tab.location.href = link.url;
  };
  return (
    <>
      <button type="button" disabled={action.busy} onClick={() => void open()}>
        Preview on site
      </button>
      {action.failure ? <span role="alert"> {action.failure.message}</span> : null}
    </>
  );
}

/** A content's address on its site: the default language at /<slug>, the others at /<lang>/<slug>. */
const publicUrl = (site: Site, draft: { slug: string; language: string }) =>
  siteAddress(site, draft.language === site.defaultLanguage ? `/${draft.slug}` : `/${draft.language}/${draft.slug}`);

/** Markdown with a live preview, rendered as the site renders it (markdown-it, raw HTML shown as text). */
function MarkdownField(props: { value: string; onValue: (v: string) => void; error?: string }) {
  const [html, setHtml] = useState("");
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
  return (
    <div class="markdown">
      <TextField label="Body (Markdown)" name="bodyMarkdown" value={props.value} onValue={props.onValue} error={props.error} multiline={16} />
      <div class="preview">
        <h2 class="label" id="preview-label">
          Preview
        </h2>
        <div class="prose" aria-labelledby="preview-label" dangerouslySetInnerHTML={{ __html: html }} />
      </div>
    </div>
  );
}

/** The cover: an image dropped here (or chosen) is uploaded to the media library and linked. */
function CoverField(props: { value: string; onValue: (v: string) => void; error?: string }) {
  const { tenant, site } = useWorkspace();
  const upload = useSubmit();
  const send = async (file: File | undefined) => {
    if (!file) return;
    const stored = await upload.run(
      () => api<Media>("POST", `/tenants/${tenant.id}/media?siteId=${site.id}&filename=${encodeURIComponent(file.name)}`, file),
      `Uploaded ${file.name}.`,
    );
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
      <Outcome failure={upload.failure} done={upload.done} />
      {props.error ? <small class="field-error">{props.error}</small> : null}
    </div>
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
  const title = site.seoTitlePattern.replace("{title}", draft.seoTitle || draft.title).replace("{site}", site.name);
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
        type="url"
        value={draft.canonical}
        onValue={set("canonical")}
        error={fieldError("canonical")}
        hint="Only when another address is the original"
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

function Publication(props: { content: Content; onChanged: () => void }) {
  const { tenant } = useWorkspace();
  const [when, setWhen] = useState(isoToLocalInput(props.content.publishAt));
  const action = useSubmit();
  const path = `/tenants/${tenant.id}/contents/${props.content.id}`;
  const act = async (work: () => Promise<unknown>, done: string) => {
    if (await action.run(work, done)) props.onChanged();
  };
  return (
    <section class="panel" aria-labelledby="publication">
      <h2 id="publication">Publication</h2>
      <Outcome failure={action.failure} done={action.done} />
      <div class="row end">
        <button type="button" class="primary" disabled={action.busy} onClick={() => act(() => api("POST", `${path}/publish`, {}), "Published.")}>
          Publish now
        </button>
        <TextField
          label="Publish at (your time)"
          name="publishAt"
          type="datetime-local"
          value={when}
          onValue={setWhen}
          error={action.fieldError("publishAt")}
        />
        <button
          type="button"
          disabled={action.busy || !when}
          onClick={() =>
            act(() => api("POST", `${path}/publish`, { publishAt: localInputToIso(when) }), `Scheduled for ${formatDate(localInputToIso(when))}.`)
          }
        >
          Schedule
        </button>
        {props.content.status !== "draft" ? (
          <button type="button" disabled={action.busy} onClick={() => act(() => api("POST", `${path}/unpublish`), "Back to draft.")}>
            Unpublish
          </button>
        ) : null}
      </div>
    </section>
  );
}

/** The content in the site's other languages: open one, or start one that is missing. */
function Translations(props: { content: Content }) {
  const { tenant, site, can } = useWorkspace();
  const original = props.content.translationOf ?? props.content.id;
  const load = useLoad(() => get<Page<Content>>(`/tenants/${tenant.id}/contents?siteId=${site.id}&size=100`), [tenant.id, site.id, props.content.id]);
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
                <strong>{language}</strong>{" "}
                {found ? (
                  found.id === props.content.id ? (
                    "this content"
                  ) : (
                    <a href={`${CONSOLE_BASE}/contents/${found.id}`}>{found.title}</a>
                  )
                ) : can("author") ? (
                  <a href={`${CONSOLE_BASE}/contents/new?translationOf=${original}&language=${language}`}>Translate into {language}</a>
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
function Versions(props: { content: Content; editable: boolean; onRestored: () => void }) {
  const { tenant } = useWorkspace();
  const path = `/tenants/${tenant.id}/contents/${props.content.id}/versions`;
  const load = useLoad(() => get<Version[]>(path), [path, props.content.version]);
  const [compared, setCompared] = useState<VersionText | null>(null);
  const action = useSubmit();
  const current = textOf(props.content);
  const lines = compared ? diffLines(textOf(compared), current) : null;
  return (
    <section class="panel" aria-labelledby="versions">
      <h2 id="versions">Versions</h2>
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <table>
          <TableHead columns={["Version", "Title", "Saved", ""]} />
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
                        if (
                          await action.run(
                            () => api("POST", `${path}/${version.version}/restore`),
                            `Restored version ${version.version} as a new version.`,
                          )
                        )
                          props.onRestored();
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
