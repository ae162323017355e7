import { useState } from "../hooks";
import { api, get, type Media, type Storage, uploadMedia } from "../api";
import { storageSize } from "../../../src/content/media/limits";
import { useWorkspace } from "../session";
import { DropZone, formatDate, Loading, Outcome, Screen, TextField, useLoad, useSubmit, DeleteButton, CopyButton, isImage, RoomUse } from "../ui";

/**
 * What an editor pastes into a body: the site-relative address, which the console and every host
 * of the site serve alike (an address on the console's host would be blocked on the site). An
 * image's text is its words, else its file name, for the writer to replace.
 */
const markdownOf = (item: Media) =>
  isImage(item)
    ? `![${(item.altText ?? item.filename).replace(/[[\]\n]/g, "")}](${item.url})`
    : `[${item.filename.replace(/[[\]]/g, "")}](${item.url})`;

/** The site's images and files: drop or choose files to upload, copy an address, delete. */
export function MediaScreen() {
  const { tenant, site, can } = useWorkspace();
  const load = useLoad(() => get<Media[]>(`/tenants/${tenant.id}/sites/${site.id}/media`), [tenant.id, site.id]);
  const storage = useLoad(() => get<Storage>(`/tenants/${tenant.id}/storage`), [tenant.id]);
  const action = useSubmit();
  const reload = () => {
    load.reload();
    storage.reload();
  };
  const upload = async (files: File[]) => {
    const names = files.map((file) => file.name);
    const said = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
    // One action for them all: a file refused is said and stops the rest, not hidden by the next one's success.
    await action.run(async () => {
      for (const file of files) await uploadMedia(tenant.id, site.id, file);
    }, `Uploaded ${said}.`);
    reload();
  };
  return (
    <Screen title="Media">
      <Outcome failure={action.failure} done={action.done} />
      {can("author") ? (
        <DropZone label="Upload media" button="Choose files" accept="image/*,application/pdf" multiple onFiles={upload}>
          <p>Drop images or PDFs here (at most 5 MB each), or</p>
        </DropZone>
      ) : null}
      {storage.data ? <RoomUse label={`Media of all sites of ${tenant.name}`} room={storage.data.media} /> : null}
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.length === 0 ? (
        <p>No media yet.</p>
      ) : (
        <ul class="media-grid">
          {load.data.map((item) => (
            // Keyed: a reload that brings a file uploaded meanwhile (first, as the newest) must not hand one
            // file's unsaved words, or its "Saved.", to the card of another.
            <li key={item.id}>
              {isImage(item) ? (
                <img src={item.url} alt={item.altText ?? item.filename} loading="lazy" />
              ) : (
                <span class="file">{item.contentType}</span>
              )}
              <p>
                <a href={item.url} target="_blank" rel="noopener">
                  {item.filename}
                </a>
                <br />
                <small>
                  {item.width ? `${item.width} × ${item.height} · ` : ""}
                  {storageSize(item.size)} · {formatDate(item.createdAt)}
                </small>
              </p>
              {isImage(item) ? <ImageWords item={item} editable={can("author")} onSaved={load.reload} /> : null}
              <label class="snippet">
                <span aria-hidden="true">Markdown for a body</span>
                <input
                  readOnly
                  value={markdownOf(item)}
                  aria-label={`Markdown of ${item.filename}`}
                  // The target of an input's focus event is that input.
                  onFocus={(event) => (event.target as HTMLInputElement).select()}
                />
              </label>
              <div class="actions">
                <CopyButton text={markdownOf(item)} label="Copy Markdown" name={`of ${item.filename}`} />
                {can("editor") ? (
                  <DeleteButton
                    name={item.filename}
                    question={`Delete ${item.filename}?`}
                    path={`/tenants/${tenant.id}/media/${item.id}`}
                    done={`Deleted ${item.filename}.`}
                    run={action.run}
                    onDone={reload}
                  />
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Screen>
  );
}

/** What an image shows, in words (its alt text): written once here, its Markdown and a cover chosen from Media start with them. */
function ImageWords(props: { item: Media; editable: boolean; onSaved: () => void }) {
  const { tenant } = useWorkspace();
  const save = useSubmit();
  const [words, setWords] = useState(props.item.altText ?? "");
  if (!props.editable) return props.item.altText ? <p>{props.item.altText}</p> : null;
  return (
    <form
      onInput={save.edited}
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const saved = await save.run(
          () => api<Media>("PATCH", `/tenants/${tenant.id}/media/${props.item.id}`, { altText: words.trim() || null }),
          words.trim() ? "Saved." : "Saved: no words now.",
        );
        if (saved) props.onSaved();
      }}
    >
      <TextField
        label={
          <>
            What it shows<span class="visually-hidden"> ({props.item.filename})</span>
          </>
        }
        name="altText"
        value={words}
        onValue={setWords}
        error={save.fieldError("altText")}
        multiline={3}
        hint="For readers who cannot see it: its Markdown starts with these words"
      />
      <button type="submit" disabled={save.busy}>
        Save words
      </button>
      <Outcome failure={save.failure} done={save.done} />
    </form>
  );
}
