import { useId, useRef } from "hono/jsx/dom";
import { useEffect, useState } from "../hooks";
import { adName } from "../../../src/content/ad-names";
import { api, get, type Ad, type AdDay, type Media } from "../api";
import { useWorkspace } from "../session";
import {
  CheckField,
  formatDate,
  isoToLocalInput,
  languageName,
  Loading,
  localInputToIso,
  Outcome,
  Screen,
  SelectField,
  TextField,
  useLoad,
  useSubmit,
  TableHead,
  DeleteButton,
  ImagePicker,
  isImage,
} from "../ui";
import type { ScreenProps } from "./index";

/** The site's ads: their daily impressions and clicks as a chart, a form to add one and the same form to change one. */
export function AdsScreen({ query }: ScreenProps) {
  const { tenant, site, can } = useWorkspace();
  const load = useLoad(
    async () => ({
      ads: await get<Ad[]>(`/tenants/${tenant.id}/sites/${site.id}/ads`),
      media: await get<Media[]>(`/tenants/${tenant.id}/sites/${site.id}/media`),
    }),
    [tenant.id, site.id],
  );
  const [chosen, setChosen] = useState<number | null>(Number(query.get("ad")) || null);
  const [editing, setEditing] = useState<number | null>(null);
  // What an edit saved, said at the top once its form has closed; the next action says its own.
  const [notice, setNotice] = useState("");
  const action = useSubmit();
  useEffect(() => {
    if (action.busy) setNotice("");
  }, [action.busy]);
  const ad = load.data?.ads.find((a) => a.id === chosen) ?? load.data?.ads[0];
  const edited = load.data?.ads.find((a) => a.id === editing);
  return (
    <Screen title="Ads">
      <Outcome failure={action.failure} done={action.done || notice} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.ads.length === 0 ? (
        <p>
          No ads yet. The default theme shows an ad of the slot <code>sidebar</code> under each page's text; another theme names its own slots.
        </p>
      ) : (
        <>
          <table class="ads">
            <TableHead caption="Ads of this site" columns={["Ad", "Runs", "State", ""]} />
            <tbody>
              {load.data.ads.map((row) => (
                <tr aria-current={row.id === ad?.id ? "true" : undefined}>
                  <td>
                    <strong>{adName(row)}</strong>
                    <span class="ad-words">{adWords(row)}</span>
                    <small>
                      {row.kind === "image" ? "Image with a link" : "HTML snippet"}, weight {row.weight}
                      {row.language ? `, on ${languageName(row.language) ?? row.language} pages only` : ""}
                    </small>
                  </td>
                  <td class="runs">
                    {formatDate(row.startsAt)} – {row.endsAt ? formatDate(row.endsAt) : "open"}
                  </td>
                  <td>
                    <span class={`badge ${row.isActive ? "running" : "paused"}`}>{row.isActive ? "running" : "paused"}</span>
                  </td>
                  <td>
                    <div class="actions">
                      {can("editor") ? (
                        <button type="button" aria-pressed={row.id === ad?.id ? "true" : "false"} onClick={() => setChosen(row.id)}>
                          Daily counts<span class="visually-hidden"> of {adName(row)}</span>
                        </button>
                      ) : null}
                      {can("owner") ? (
                        <>
                          <button type="button" onClick={() => setEditing(row.id)}>
                            Edit<span class="visually-hidden"> {adName(row)}</span>
                          </button>
                          <button
                            type="button"
                            onClick={async () =>
                              (await action.run(
                                () => api("PATCH", `/tenants/${tenant.id}/ads/${row.id}`, { isActive: !row.isActive }),
                                row.isActive ? "Paused." : "Resumed.",
                              )) && load.reload()
                            }
                          >
                            {row.isActive ? "Pause" : "Resume"}
                            <span class="visually-hidden"> {adName(row)}</span>
                          </button>
                          <DeleteButton
                            name={adName(row)}
                            question={`Delete ${adName(row)} and its counts?`}
                            path={`/tenants/${tenant.id}/ads/${row.id}`}
                            done="Deleted."
                            run={action.run}
                            onDone={load.reload}
                          />
                        </>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {ad && can("editor") ? <AdChart key={ad.id} ad={ad} /> : null}
        </>
      )}
      {can("owner") && load.data && edited ? (
        <AdForm
          key={`edit-${edited.id}`}
          ad={edited}
          media={load.data.media}
          onSaved={(message) => {
            setEditing(null);
            setNotice(message);
            load.reload();
            document.getElementById("screen-title")?.focus();
          }}
          onCancel={() => setEditing(null)}
        />
      ) : can("owner") && load.data ? (
        <AdForm key="new" media={load.data.media} onSaved={load.reload} />
      ) : null}
    </Screen>
  );
}

/** The slot the default theme shows, under each page's text. */
const DEFAULT_SLOT = "sidebar";

/**
 * What an ad says, to tell the ads of a list apart: an HTML ad's words (parsed inert: nothing in it
 * runs or loads), an image ad's picture in words and its link.
 */
function adWords(ad: Pick<Ad, "kind" | "html" | "link" | "altText">): string {
  const words =
    ad.kind === "html"
      ? (new DOMParser().parseFromString(ad.html ?? "", "text/html").body.textContent ?? "")
      : [ad.altText, ad.link].filter(Boolean).join(" · ");
  const trimmed = words.replace(/\s+/g, " ").trim();
  return trimmed.length > 80 ? `${trimmed.slice(0, 79)}…` : trimmed;
}

const DAY_MS = 86_400_000;
/** The chart's days: at least a week, so that one day of data is one bar among days, at most the 90 the API keeps. */
const MIN_DAYS = 7;
const MAX_DAYS = 90;
/** About this many dates under the bars, whatever the width: on a phone each gets some 50 px. */
const AXIS_LABELS = 6;

/** A UTC day (YYYY-MM-DD, as the counts are kept) as a number of days, and back. */
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);
const shortDate = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
const longDate = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/** The top of the scale: the most counted in a day, rounded up to 1, 2 or 5 times a power of ten. */
function scaleTop(most: number): number {
  if (most <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(most));
  return [1, 2, 5, 10].map((step) => step * power).find((top) => top >= most)!;
}

/**
 * Every day from the ad's first (its start or its first count, at most 90 days back) to today or
 * its end, those without counts as zeros, oldest first.
 */
function chartDays(ad: Pick<Ad, "startsAt" | "endsAt">, counted: AdDay[], today = new Date().toISOString().slice(0, 10)): AdDay[] {
  const byDay = new Map(counted.map((d) => [d.day, d]));
  const todayNumber = dayNumber(today);
  const ended = ad.endsAt ? dayNumber(ad.endsAt.slice(0, 10)) : todayNumber;
  const last = Math.max(Math.min(todayNumber, ended), ...counted.map((d) => dayNumber(d.day)));
  const first = Math.min(dayNumber(ad.startsAt.slice(0, 10)), ...counted.map((d) => dayNumber(d.day)));
  const from = Math.min(Math.max(first, last - MAX_DAYS + 1), last - MIN_DAYS + 1);
  return Array.from({ length: last - from + 1 }, (_, i) => byDay.get(dayOf(from + i)) ?? { day: dayOf(from + i), impressions: 0, clicks: 0 });
}

/**
 * Impressions and clicks a day, side by side on one scale, with the dates under them; drawn with
 * CSS (no library), the same numbers as a table for screen readers and anyone who wants them.
 */
function AdChart({ ad }: { ad: Ad }) {
  const { tenant } = useWorkspace();
  const load = useLoad(() => get<AdDay[]>(`/tenants/${tenant.id}/ads/${ad.id}/stats`), [ad.id]);
  const captionId = useId();
  if (!load.data) return <Loading failure={load.failure} />;
  const days = chartDays(ad, load.data);
  const impressions = days.reduce((n, d) => n + d.impressions, 0);
  const clicks = days.reduce((n, d) => n + d.clicks, 0);
  const top = scaleTop(Math.max(...days.map((d) => Math.max(d.impressions, d.clicks))));
  const every = Math.ceil(days.length / AXIS_LABELS);
  const height = (count: number) => `${(count / top) * 100}%`;
  return (
    <figure class="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>
        <strong>{adName(ad)}</strong>: {impressions} {impressions === 1 ? "impression" : "impressions"}, {clicks} {clicks === 1 ? "click" : "clicks"}{" "}
        from {longDate(days[0]!.day)} to {longDate(days.at(-1)!.day)}
        {impressions ? ` (${((clicks / impressions) * 100).toFixed(1)} % clicked)` : ""}
      </figcaption>
      <p class="legend" aria-hidden="true">
        <span class="key impressions" /> Impressions <span class="key clicks" /> Clicks
      </p>
      {/* The bars repeat the table below, which is what a screen reader reads. */}
      <div class="plot" aria-hidden="true">
        <div class="scale">
          <span>{top}</span>
          <span>{top / 2}</span>
          <span>0</span>
        </div>
        <ol class="days" style={{ gridTemplateColumns: `repeat(${days.length}, minmax(0, 1fr))` }}>
          {days.map((d, i) => {
            const labelled = (days.length - 1 - i) % every === 0;
            const edge = i < every / 2 ? " first" : i === days.length - 1 ? " last" : "";
            return (
              <li title={`${longDate(d.day)}: ${d.impressions} impressions, ${d.clicks} clicks`}>
                <span class="bars">
                  <span class="impressions" style={{ height: height(d.impressions) }} />
                  <span class="clicks" style={{ height: height(d.clicks) }} />
                </span>
                {labelled ? <span class={`date${edge}`}>{shortDate(d.day)}</span> : null}
              </li>
            );
          })}
        </ol>
      </div>
      <details>
        <summary>The numbers, day by day</summary>
        <table>
          <TableHead caption="Impressions and clicks a day" columns={["Day", "Impressions", "Clicks"]} />
          <tbody>
            {[...days].reverse().map((d) => (
              <tr>
                <td>{longDate(d.day)}</td>
                <td>{d.impressions}</td>
                <td>{d.clicks}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** A new ad, or every field of an existing one (`ad`), in one form. */
function AdForm(props: { ad?: Ad; media: Media[]; onSaved: (message: string) => void; onCancel?: () => void }) {
  const { tenant, site } = useWorkspace();
  const existing = props.ad;
  const [kind, setKind] = useState<"image" | "html">(existing?.kind ?? "image");
  // The default theme's one slot: a new ad shows without the person knowing slots exist.
  const [slot, setSlot] = useState(existing?.slot ?? DEFAULT_SLOT);
  const [mediaId, setMediaId] = useState(existing?.mediaId ? String(existing.mediaId) : "");
  const [link, setLink] = useState(existing?.link ?? "");
  const [altText, setAltText] = useState(existing?.altText ?? "");
  const [html, setHtml] = useState(existing?.html ?? "");
  const [startsAt, setStartsAt] = useState(isoToLocalInput(existing?.startsAt ?? new Date().toISOString()));
  const [endsAt, setEndsAt] = useState(isoToLocalInput(existing?.endsAt));
  const [weight, setWeight] = useState(String(existing?.weight ?? 1));
  const [active, setActive] = useState(existing?.isActive ?? true);
  const [language, setLanguage] = useState(existing?.language ?? "");
  const [name, setName] = useState(existing?.name ?? "");
  const save = useSubmit();
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  // Opening an ad to edit brings its form into view, its heading focused (a screen reader says which ad).
  useEffect(() => {
    if (!existing) return;
    heading.current?.scrollIntoView({ block: "start" });
    heading.current?.focus();
  }, [existing?.id]);
  const images = props.media.filter(isImage);
  return (
    <form
      onInput={save.edited}
      class="panel"
      aria-labelledby={headingId}
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const fields = {
          kind,
          slot,
          // The other kind's fields are emptied: an ad is one or the other.
          ...(kind === "image"
            ? { mediaId: Number(mediaId) || 0, link: link || null, altText: altText.trim() || null, html: null }
            : { html, mediaId: null, link: null, altText: null }),
          startsAt: localInputToIso(startsAt),
          endsAt: endsAt ? localInputToIso(endsAt) : null,
          weight: Number(weight),
          isActive: active,
          language: language || null,
          name: name.trim() || null,
        };
        const message = existing ? `${adName({ ...existing, name: fields.name })} saved.` : `${fields.name ? `${fields.name}: ad` : "Ad"} created.`;
        const saved = existing
          ? await save.run(() => api("PATCH", `/tenants/${tenant.id}/ads/${existing.id}`, fields), message)
          : await save.run(() => api("POST", `/tenants/${tenant.id}/ads`, { siteId: site.id, ...fields }), message);
        if (!saved) return;
        // A created ad leaves an empty form for the next one.
        if (!existing) {
          setSlot(DEFAULT_SLOT);
          setMediaId("");
          setLink("");
          setAltText("");
          setHtml("");
          setEndsAt("");
          setWeight("1");
          setLanguage("");
          setName("");
        }
        props.onSaved(message);
      }}
    >
      <h2 id={headingId} ref={heading} tabindex={-1}>
        {existing ? `Edit ${adName(existing)}` : "New ad"}
      </h2>
      <Outcome failure={save.failure} done={save.done} />
      <TextField
        label="Name"
        name="name"
        value={name}
        onValue={setName}
        error={save.fieldError("name")}
        hint="For you and your colleagues, in this list and the counts (“Winter sale”); readers never see it"
      />
      <div class="row">
        <SelectField
          label="Kind"
          name="kind"
          value={kind}
          onValue={(v) => setKind(v as "image" | "html")}
          options={[
            ["image", "Image with a link"],
            ["html", "HTML snippet (sandboxed)"],
          ]}
        />
        <TextField
          label="Slot"
          name="slot"
          value={slot}
          onValue={setSlot}
          error={save.fieldError("slot")}
          hint="Where it shows: the default theme shows sidebar under each page's text; another theme names its own slots"
          required
        />
        <TextField label="Weight" name="weight" type="number" value={weight} onValue={setWeight} error={save.fieldError("weight")} />
      </div>
      {kind === "image" ? (
        <>
          <ImagePicker name="mediaId" images={images} value={mediaId} onValue={setMediaId} error={save.fieldError("mediaId")} />
          <TextField
            label="What the image shows"
            name="altText"
            value={altText}
            onValue={setAltText}
            error={save.fieldError("altText")}
            hint="In words, for readers who cannot see it (its alt text): “Harbour Café: breakfast until noon”. Left empty, readers hear “Advertisement”"
          />
          <TextField
            label="Link"
            name="link"
            value={link}
            onValue={setLink}
            error={save.fieldError("link")}
            hint="Where a click leads: a full address (https://…) or a page of this site (/our-new-croissants)"
          />
        </>
      ) : (
        <TextField label="HTML" name="html" value={html} onValue={setHtml} error={save.fieldError("html")} multiline={4} />
      )}
      <div class="row">
        <TextField
          label="Starts"
          name="startsAt"
          type="datetime-local"
          value={startsAt}
          onValue={setStartsAt}
          error={save.fieldError("startsAt")}
          required
        />
        <TextField label="Ends" name="endsAt" type="datetime-local" value={endsAt} onValue={setEndsAt} error={save.fieldError("endsAt")} />
      </div>
      {site.languages.length > 1 || language ? (
        <SelectField
          label="Shown on the pages in"
          name="language"
          value={language}
          onValue={setLanguage}
          options={[["", "Every language"], ...site.languages.map((code): [string, string] => [code, `${languageName(code) ?? code} (${code})`])]}
          error={save.fieldError("language")}
        />
      ) : null}
      <CheckField label="Active" checked={active} onValue={setActive} />
      <p class="actions">
        <button class="primary" type="submit" disabled={save.busy}>
          {existing ? "Save changes" : "Create ad"}
        </button>
        {props.onCancel ? (
          <button type="button" onClick={props.onCancel}>
            Cancel
          </button>
        ) : null}
      </p>
    </form>
  );
}
