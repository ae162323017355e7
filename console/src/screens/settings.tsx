import { useState } from "../hooks";
import { slugFrom } from "../../../src/content/slugs";
import { api, get, type Media, type Site } from "../api";
import { useWorkspace } from "../session";
import {
  CheckField,
  filledIn,
  LanguagesField,
  languageName,
  Outcome,
  PerLanguageFields,
  Screen,
  SelectField,
  TextField,
  useLoad,
  useSubmit,
  isImage,
} from "../ui";

/** Every IANA time zone this browser knows (the server checks with the same Intl), UTC first. */
const TIME_ZONES = ["UTC", ...Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC")];
/** Zones the browser still names as before IANA renamed them (its ICU keeps the old ids): the new name beside, for a person who looks for it. */
const RENAMED_ZONES: Record<string, string> = {
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Asia/Rangoon": "Asia/Yangon",
  "Europe/Kiev": "Europe/Kyiv",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "America/Godthab": "America/Nuuk",
  "Pacific/Truk": "Pacific/Chuuk",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Enderbury": "Pacific/Kanton",
};
/** The zone this browser is in: where a new site's owner most likely is. */
const browserZone = () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return TIME_ZONES.includes(zone) ? zone : undefined;
};
const zoneOptions = (current: string): [string, string][] =>
  (TIME_ZONES.includes(current) ? TIME_ZONES : [current, ...TIME_ZONES]).map((z) => [z, RENAMED_ZONES[z] ? `${z} (${RENAMED_ZONES[z]})` : z]);

/** The site's settings (owner), read by every member; and a new site of the tenant. */
export function SettingsScreen() {
  const { tenant, site, can } = useWorkspace();
  const images = useLoad(() => get<Media[]>(`/tenants/${tenant.id}/sites/${site.id}/media`), [tenant.id, site.id]);
  return (
    <Screen title="Site settings">
      {can("owner") ? null : <p class="alert">Only an owner of the tenant can change these settings; you can read them.</p>}
      {/* The key resets the form when another site is chosen in the header. */}
      <SiteForm key={site.id} site={site} images={images.data?.filter(isImage)} />
      {can("owner") ? <Domains key={site.id} site={site} /> : null}
      {can("owner") ? <NewSite /> : null}
    </Screen>
  );
}

/** `images`: the site's images, once they are read. */
function SiteForm(props: { site: Site; images?: Media[] }) {
  const { tenant, can, refreshSites, siteUrl } = useWorkspace();
  const { site } = props;
  const readOnly = !can("owner");
  const [name, setName] = useState(site.name);
  const [description, setDescription] = useState(site.seoDescription ?? "");
  const [descriptions, setDescriptions] = useState<Record<string, string>>(site.seoDescriptions);
  const [slug, setSlug] = useState(site.slug);
  const [listed, setListed] = useState(site.languages);
  const [defaultLanguage, setDefaultLanguage] = useState(site.defaultLanguage);
  const [timezone, setTimezone] = useState(site.timezone);
  const [titlePattern, setTitlePattern] = useState(site.seoTitlePattern);
  const [seoImage, setSeoImage] = useState(site.seoImage ?? "");
  const [favicon, setFavicon] = useState(site.favicon ?? "");
  const save = useSubmit();
  const otherLanguages = listed.filter((code) => code !== defaultLanguage);
  const imageOptions = (current: string): [string, string][] => [
    ["", "None"],
    ...(current && !props.images?.some((m) => m.url === current) ? [[current, current] as [string, string]] : []),
    ...(props.images ?? []).map((m): [string, string] => [m.url, m.filename]),
  ];
  return (
    <form
      onInput={save.edited}
      class="panel"
      aria-labelledby="site-settings"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const body = {
          name,
          seoDescription: description.trim() || null,
          seoDescriptions: filledIn(descriptions, otherLanguages),
          slug,
          languages: listed,
          defaultLanguage,
          timezone,
          seoTitlePattern: titlePattern,
          seoImage: seoImage || null,
          favicon: favicon || null,
        };
        if (await save.run(() => api("PATCH", `/tenants/${tenant.id}/sites/${site.id}`, body), "Saved: the site shows the changes on its next page."))
          refreshSites();
      }}
    >
      <h2 id="site-settings">{site.name}</h2>
      <p class="hint">
        Seen at <a href={siteUrl()}>{siteUrl()}</a>
      </p>
      <Outcome failure={save.failure} done={save.done} />
      <div class="row">
        <TextField label="Name" name="name" value={name} onValue={setName} error={save.fieldError("name")} required disabled={readOnly} />
        <TextField
          label="Address name (slug)"
          name="slug"
          value={slug}
          onValue={setSlug}
          error={save.fieldError("slug")}
          hint={
            slug !== site.slug
              ? `Saving moves its development address to ${slug}.localhost: ${site.slug}.localhost stops answering (its domains stay)`
              : "Its address on a development machine: <slug>.localhost"
          }
          disabled={readOnly}
        />
      </div>
      <TextField
        label="Description"
        name="description"
        value={description}
        onValue={setDescription}
        multiline={2}
        error={save.fieldError("seoDescription")}
        hint="Shown under the name on the home page, and to search engines for pages without their own"
        disabled={readOnly}
      />
      <div class="row">
        <LanguagesField
          label="Languages"
          value={listed}
          onValue={setListed}
          error={save.fieldError("languages") ?? listed.map((_, i) => save.fieldError(`languages.${i}`)).find(Boolean)}
          disabled={readOnly}
        />
        <SelectField
          label="Default language"
          name="defaultLanguage"
          value={defaultLanguage}
          onValue={setDefaultLanguage}
          options={(listed.includes(defaultLanguage) ? listed : [defaultLanguage, ...listed]).map((code) => [
            code,
            `${languageName(code) ?? code} (${code})`,
          ])}
          error={save.fieldError("defaultLanguage")}
          disabled={readOnly}
        />
        <SelectField
          label="Time zone"
          name="timezone"
          value={timezone}
          onValue={setTimezone}
          options={zoneOptions(timezone)}
          error={save.fieldError("timezone")}
          disabled={readOnly}
        />
      </div>
      <PerLanguageFields
        what="Description"
        field="seoDescriptions"
        languages={otherLanguages}
        values={descriptions}
        onValues={setDescriptions}
        fieldError={save.fieldError}
        hint={(language) => `On the site's pages in ${language}; left empty, they show the description above`}
        multiline={2}
        disabled={readOnly}
      />
      <TextField
        label="Page title"
        name="seoTitlePattern"
        value={titlePattern}
        onValue={setTitlePattern}
        error={save.fieldError("seoTitlePattern")}
        hint={`{title} is the page's title, {site} the site's name: “${titlePattern.replace("{title}", "About us").replace("{site}", name)}”`}
        disabled={readOnly}
      />
      <div class="row">
        <SelectField
          label="Social image (when a page has none)"
          name="seoImage"
          value={seoImage}
          onValue={setSeoImage}
          options={imageOptions(seoImage)}
          error={save.fieldError("seoImage")}
          disabled={readOnly}
        />
        <SelectField
          label="Favicon"
          name="favicon"
          value={favicon}
          onValue={setFavicon}
          options={imageOptions(favicon)}
          error={save.fieldError("favicon")}
          disabled={readOnly}
        />
        {seoImage ? <img class="setting-preview" src={seoImage} alt="The social image" /> : null}
        {favicon ? <img class="setting-preview icon" src={favicon} alt="The favicon" /> : null}
      </div>
      {props.images ? (
        <p class="hint">
          {props.images.length === 0
            ? "The social image and the favicon come from this site's Media, which has no image yet: upload one there first."
            : "The social image and the favicon come from this site's Media: a new image uploaded there shows in these lists."}
        </p>
      ) : null}
      {readOnly ? null : (
        <button class="primary" type="submit" disabled={save.busy}>
          Save settings
        </button>
      )}
    </form>
  );
}

/** The host names the site answers on: claimed here, proved by a DNS record, then checked. */
function Domains(props: { site: Site }) {
  const { tenant, refreshSites } = useWorkspace();
  const { site } = props;
  const [primary, setPrimary] = useState(site.primaryDomain ?? "");
  const [aliases, setAliases] = useState(site.aliases.join("\n"));
  const save = useSubmit();
  const aliasList = aliases
    .split(/\s+/)
    .map((a) => a.trim())
    .filter(Boolean);
  return (
    <form
      onInput={save.edited}
      class="panel"
      aria-labelledby="site-domains"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const body = { primaryDomain: primary.trim() || null, aliases: aliasList };
        if (await save.run(() => api("PATCH", `/tenants/${tenant.id}/sites/${site.id}`, body), "Saved: publish each record below, then check it."))
          refreshSites();
      }}
    >
      <h2 id="site-domains">Domain and aliases</h2>
      <Outcome failure={save.failure} done={save.done} />
      <TextField
        label="Domain"
        name="primaryDomain"
        value={primary}
        onValue={setPrimary}
        placeholder="news.example.com"
        error={save.fieldError("primaryDomain")}
      />
      <TextField
        label="Aliases, one a line"
        name="aliases"
        value={aliases}
        onValue={setAliases}
        multiline={2}
        placeholder="www.news.example.com"
        error={save.fieldError("aliases") ?? aliasList.map((_, i) => save.fieldError(`aliases.${i}`)).find(Boolean)}
      />
      <button type="submit" disabled={save.busy}>
        Save domains
      </button>
      {site.domains.length ? (
        <ul class="plain domains">
          {site.domains.map((domain) => (
            <li>
              <strong>{domain.host}</strong> {domain.primary ? "(domain)" : "(alias)"}:{" "}
              {domain.verified ? (
                <span class="ok">proved, the site answers there</span>
              ) : (
                <>
                  <span>not proved yet: publish this DNS record, then check.</span>
                  <code class="record">
                    {domain.verification?.type} {domain.verification?.name} "{domain.verification?.value}"
                  </code>
                  <button
                    type="button"
                    disabled={save.busy}
                    onClick={async () => {
                      const checked = await save.run(
                        () => api("POST", `/tenants/${tenant.id}/sites/${site.id}/domains/verify`, { host: domain.host }),
                        `${domain.host} is proved: the site answers there.`,
                      );
                      if (checked) refreshSites();
                    }}
                  >
                    Check<span class="visually-hidden"> {domain.host}</span>
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}

/** Another site of the tenant: it starts with a copy of this site's theme, so its pages show at once. */
function NewSite() {
  const { tenant, site, refreshSites } = useWorkspace();
  const [name, setName] = useState("");
  const [slug, setSlug] = useState("");
  const [languages, setLanguages] = useState(["en"]);
  const [timezone, setTimezone] = useState(() => browserZone() ?? site.timezone);
  const [copyTheme, setCopyTheme] = useState(true);
  const create = useSubmit();
  const suggested = slugFrom(name, languages[0]);
  return (
    <form
      onInput={create.edited}
      class="panel"
      aria-labelledby="new-site"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const body = {
          name,
          slug: slug || suggested,
          languages,
          timezone,
          ...(copyTheme ? { copyThemeFrom: site.id } : {}),
        };
        const created = await create.run(
          () => api<Site>("POST", `/tenants/${tenant.id}/sites`, body),
          `Created ${name}: the console now works on it.`,
        );
        if (created) {
          setName("");
          setSlug("");
          setLanguages(["en"]);
          refreshSites(created.id);
        }
      }}
    >
      <h2 id="new-site">Add a site</h2>
      <Outcome failure={create.failure} done={create.done} />
      <div class="row">
        <TextField label="Name" name="name" value={name} onValue={setName} error={create.fieldError("name")} required />
        <TextField label="Address name (slug)" name="slug" value={slug} onValue={setSlug} placeholder={suggested} error={create.fieldError("slug")} />
        <LanguagesField
          label="Languages"
          value={languages}
          onValue={setLanguages}
          hint="The first is the default"
          error={create.fieldError("languages") ?? create.fieldError("languages.0") ?? create.fieldError("defaultLanguage")}
        />
        <SelectField
          label="Time zone"
          name="timezone"
          value={timezone}
          onValue={setTimezone}
          options={zoneOptions(timezone)}
          error={create.fieldError("timezone")}
        />
      </div>
      <CheckField
        label={`Start with the theme of ${site.name} (otherwise with the service's starter theme)`}
        checked={copyTheme}
        onValue={setCopyTheme}
        name="copyTheme"
      />
      <button class="primary" type="submit" disabled={create.busy}>
        Add the site
      </button>
    </form>
  );
}
