import { useRef } from "hono/jsx/dom";
import { useState } from "../hooks";
import { api, get, type Storage, type Themes } from "../api";
import { useWorkspace } from "../session";
import { DeleteButton, Loading, Outcome, RoomUse, Screen, TextField, useLoad, useSubmit } from "../ui";

/** The site's themes: upload a zip (asking before one replaces a theme), preview any on the site, activate, roll back, download, delete. */
export function ThemesScreen() {
  const { tenant, site, can, siteUrl } = useWorkspace();
  const path = `/tenants/${tenant.id}/sites/${site.id}/themes`;
  const load = useLoad(() => get<Themes>(path), [path]);
  const storage = useLoad(() => get<Storage>(`/tenants/${tenant.id}/storage`), [tenant.id]);
  const reload = () => {
    load.reload();
    storage.reload();
  };
  const action = useSubmit();
  // The last preview link handed out: after an upload, or where the browser kept the preview's tab from opening.
  const [preview, setPreview] = useState<{ theme: string; url: string } | null>(null);
  const [name, setName] = useState("");
  const file = useRef<HTMLInputElement>(null);
  const activate = async (theme: string, done: string) => {
    if (await action.run(() => api("POST", `${path}/${theme}/activate`), done)) load.reload();
  };
  const previewTheme = async (theme: string) => {
    // Opened on the click itself, before the link is known, so that no pop-up blocker stops it.
    const tab = window.open("", "_blank");
    const link = await action.run(() => get<{ previewUrl: string }>(`${path}/${theme}/preview`));
    if (!link) return tab?.close();
    if (!tab) return setPreview({ theme, url: link.previewUrl });
    tab.opener = null;
    tab.location.href = siteUrl(link.previewUrl);
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
                <span class="name">
                  <strong>{theme}</strong> {theme === load.data!.active ? <span class="badge published">active</span> : null}
                </span>
                {can("owner") ? (
                  <span class="actions">
                    <button type="button" disabled={action.busy} onClick={() => previewTheme(theme)}>
                      Preview<span class="visually-hidden"> {theme}</span>
                    </button>
                    {theme !== load.data!.active ? (
                      <button type="button" disabled={action.busy} onClick={() => activate(theme, `${theme} is the site's theme now.`)}>
                        Activate<span class="visually-hidden"> {theme}</span>
                      </button>
                    ) : null}
                    <a class="button" href={`/admin/api${path}/${theme}/download`} download={`${theme}.zip`}>
                      Download<span class="visually-hidden"> {theme}</span>
                    </a>
                    {theme !== load.data!.active ? (
                      <DeleteButton
                        name={theme}
                        question={`Delete theme ${theme}? Its files are removed for good (download it first to keep a copy).`}
                        path={`${path}/${theme}`}
                        done={`Deleted ${theme}.`}
                        run={action.run}
                        onDone={() => {
                          // A deleted theme's preview link leads nowhere.
                          if (preview?.theme === theme) setPreview(null);
                          reload();
                        }}
                      />
                    ) : null}
                  </span>
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
          {preview.theme}: look at it before you activate it:{" "}
          <a href={siteUrl(preview.url)} target="_blank" rel="noopener">
            preview the site with this theme
          </a>{" "}
          (not indexed; share it only with who should see the draft).
        </p>
      ) : null}
      {can("owner") ? (
        <form
          class="panel"
          aria-labelledby="upload-theme"
          onInput={action.edited}
          onSubmit={async (e: Event) => {
            e.preventDefault();
            const zip = file.current?.files?.[0];
            if (!zip) return;
            const live = name === load.data?.active;
            const replacing = load.data?.themes.includes(name);
            if (
              replacing &&
              !confirm(
                `Replace theme ${name}? Its files are replaced by the zip's${live ? ": it is the site's theme, so readers see them at once" : ""}.`,
              )
            )
              return;
            const stored = await action.run(
              () =>
                api<{ name: string; files: number; previewUrl: string }>("POST", `${path}?name=${encodeURIComponent(name)}`, zip, {
                  "Content-Type": "application/zip",
                }),
              // A site without its theme's files (a new one) shows the theme of that name at once.
              replacing || live
                ? `${replacing ? "Replaced" : "Stored"} ${name}${live ? ": it is the site's theme, so the site shows it now" : " (not active)"}.`
                : `Stored ${name} (not active yet).`,
            );
            if (stored) {
              // The site's own theme needs no preview: the site is its preview.
              setPreview(live ? null : { theme: stored.name, url: stored.previewUrl });
              // Stored: the form is ready for the next theme.
              setName("");
              if (file.current) file.current.value = "";
            }
            // A refused upload may still have changed what is used: another member's upload, a cleanup.
            reload();
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
          {storage.data ? <RoomUse label={`Themes of all sites of ${tenant.name}, unpacked`} room={storage.data.themes} /> : null}
        </form>
      ) : null}
    </Screen>
  );
}
