import { useRef, useState } from "hono/jsx/dom";
import { api, get, type Themes } from "../api";
import { useWorkspace } from "../session";
import { Loading, Outcome, Screen, TextField, useLoad, useSubmit } from "../ui";

/** The site's themes: upload a zip, preview it on a draft address, activate it, roll back. */
export function ThemesScreen() {
  const { tenant, site, can, siteUrl } = useWorkspace();
  const path = `/tenants/${tenant.id}/sites/${site.id}/themes`;
  const load = useLoad(() => get<Themes>(path), [path]);
  const action = useSubmit();
  const [preview, setPreview] = useState<string | null>(null);
  const [name, setName] = useState("");
  const file = useRef<HTMLInputElement>(null);
  const activate = async (theme: string, done: string) => {
    if (await action.run(() => api("POST", `${path}/${theme}/activate`), done)) load.reload();
  };
  return (
    <Screen title="Themes">
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <>
          <ul class="plain themes">
            {load.data.themes.map((theme) => (
              <li>
                <strong>{theme}</strong> {theme === load.data!.active ? <span class="badge published">active</span> : null}
                {can("owner") && theme !== load.data!.active ? (
                  <button type="button" disabled={action.busy} onClick={() => activate(theme, `${theme} is the site's theme now.`)}>
                    Activate<span class="visually-hidden"> {theme}</span>
                  </button>
                ) : null}
              </li>
            ))}
          </ul>
          {can("owner") && load.data.previous && load.data.previous !== load.data.active && load.data.themes.includes(load.data.previous) ? (
            <p>
              <button type="button" disabled={action.busy} onClick={() => activate(load.data!.previous!, `Rolled back to ${load.data!.previous}.`)}>
                Roll back to {load.data.previous}
              </button>
            </p>
          ) : null}
        </>
      )}
      {preview ? (
        <p class="alert ok">
          Uploaded. Look at it before you activate it:{" "}
          <a href={siteUrl(preview)} target="_blank" rel="noopener">
            preview the site with this theme
          </a>{" "}
          (not indexed; share it only with who should see the draft).
        </p>
      ) : null}
      {can("owner") ? (
        <form
          class="panel"
          aria-labelledby="upload-theme"
          onSubmit={async (e: Event) => {
            e.preventDefault();
            const zip = file.current?.files?.[0];
            if (!zip) return;
            const stored = await action.run(
              () =>
                api<{ name: string; files: number; previewUrl: string }>("POST", `${path}?name=${encodeURIComponent(name)}`, zip, {
                  "Content-Type": "application/zip",
                }),
              `Stored ${name} (not active yet).`,
            );
            if (stored) {
              setPreview(stored.previewUrl);
              load.reload();
            }
          }}
        >
          <h2 id="upload-theme">Upload a theme</h2>
          <p class="hint">
            A zip with layouts/, templates/ (index.html.j2 and 404.html.j2 at least), assets/ and locales/; at most 20 MB. docs/themes.md says what
            templates can read.
          </p>
          <TextField
            label="Theme name"
            name="name"
            value={name}
            onValue={setName}
            error={action.fieldError("name")}
            hint="Lower-case letters, digits and dashes"
            required
          />
          <div class="field">
            <label for="theme-zip">Zip file</label>
            <input id="theme-zip" ref={file} type="file" name="zip" accept=".zip,application/zip" required />
          </div>
          <button class="primary" type="submit" disabled={action.busy}>
            Upload
          </button>
        </form>
      ) : null}
    </Screen>
  );
}
