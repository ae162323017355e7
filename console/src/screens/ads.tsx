import { useState } from "hono/jsx/dom";
import { api, get, type Ad, type AdDay, type Media } from "../api";
import { useWorkspace } from "../session";
import {
  CheckField,
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
  DeleteButton,
} from "../ui";
import type { ScreenProps } from "./index";

/** The site's ads: their daily impressions and clicks as a chart, and a form to add one. */
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
  const action = useSubmit();
  const ad = load.data?.ads.find((a) => a.id === chosen) ?? load.data?.ads[0];
  return (
    <Screen title="Ads">
      <Outcome failure={action.failure} done={action.done} />
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.ads.length === 0 ? (
        <p>No ads yet. A theme shows the ads of a slot where it reads ads.&lt;slot&gt;.</p>
      ) : (
        <>
          <table>
            <TableHead columns={["Slot", "Kind", "Weight", "Runs", "Active", ""]} />
            <tbody>
              {load.data.ads.map((row) => (
                <tr aria-current={row.id === ad?.id ? "true" : undefined}>
                  <td>
                    {row.slot} #{row.id}
                  </td>
                  <td>{row.kind}</td>
                  <td>{row.weight}</td>
                  <td>
                    {formatDate(row.startsAt)} – {row.endsAt ? formatDate(row.endsAt) : "open"}
                  </td>
                  <td>{row.isActive ? "yes" : "no"}</td>
                  <td class="actions">
                    {can("editor") ? (
                      <button type="button" onClick={() => setChosen(row.id)}>
                        Daily counts<span class="visually-hidden"> of ad {row.id}</span>
                      </button>
                    ) : null}
                    {can("owner") ? (
                      <>
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
                          <span class="visually-hidden"> ad {row.id}</span>
                        </button>
                        <DeleteButton
                          name={`ad ${row.id}`}
                          question={`Delete ad ${row.id} and its counts?`}
                          path={`/tenants/${tenant.id}/ads/${row.id}`}
                          done="Deleted."
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
          {ad && can("editor") ? <AdChart key={ad.id} ad={ad} /> : null}
        </>
      )}
      {can("owner") && load.data ? <NewAd media={load.data.media} onCreated={load.reload} /> : null}
    </Screen>
  );
}

/** Impressions and clicks a day over the last 90 days: bars, with the same numbers as a table for screen readers. */
function AdChart({ ad }: { ad: Ad }) {
  const { tenant } = useWorkspace();
  const load = useLoad(() => get<AdDay[]>(`/tenants/${tenant.id}/ads/${ad.id}/stats`), [ad.id]);
  if (!load.data) return <Loading failure={load.failure} />;
  const days = load.data;
  const most = Math.max(1, ...days.map((d) => d.impressions));
  const width = Math.max(days.length, 1) * 12;
  return (
    <figure class="chart" aria-labelledby={`chart-${ad.id}`}>
      <figcaption id={`chart-${ad.id}`}>
        Ad #{ad.id} ({ad.slot}): {days.reduce((n, d) => n + d.impressions, 0)} impressions, {days.reduce((n, d) => n + d.clicks, 0)} clicks in the
        last 90 days
      </figcaption>
      {days.length ? (
        <svg viewBox={`0 0 ${width} 100`} role="img" aria-label="Impressions (bars) and clicks (dark bars) a day" preserveAspectRatio="none">
          {days.map((d, i) => (
            <g>
              <rect class="impressions" x={i * 12 + 1} width="10" y={100 - (d.impressions / most) * 100} height={(d.impressions / most) * 100}>
                <title>
                  {d.day}: {d.impressions} impressions, {d.clicks} clicks
                </title>
              </rect>
              <rect class="clicks" x={i * 12 + 3} width="6" y={100 - (d.clicks / most) * 100} height={(d.clicks / most) * 100} />
            </g>
          ))}
        </svg>
      ) : (
        <p>No impressions yet.</p>
      )}
      <details>
        <summary>The numbers</summary>
        <table>
          <TableHead columns={["Day", "Impressions", "Clicks"]} />
          <tbody>
            {days.map((d) => (
              <tr>
                <td>{d.day}</td>
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

function NewAd(props: { media: Media[]; onCreated: () => void }) {
  const { tenant, site } = useWorkspace();
  const [kind, setKind] = useState<"image" | "html">("image");
  const [slot, setSlot] = useState("");
  const [mediaId, setMediaId] = useState("");
  const [link, setLink] = useState("");
  const [html, setHtml] = useState("");
  const [startsAt, setStartsAt] = useState(isoToLocalInput(new Date().toISOString()));
  const [endsAt, setEndsAt] = useState("");
  const [weight, setWeight] = useState("1");
  const [active, setActive] = useState(true);
  const create = useSubmit();
  const images = props.media.filter((m) => m.contentType.startsWith("image/"));
  return (
    <form
      class="panel"
      aria-labelledby="new-ad"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const body = {
          siteId: site.id,
          kind,
          slot,
          ...(kind === "image" ? { mediaId: Number(mediaId) || 0, link: link || null } : { html }),
          startsAt: localInputToIso(startsAt),
          endsAt: endsAt ? localInputToIso(endsAt) : null,
          weight: Number(weight),
          isActive: active,
        };
        if (await create.run(() => api("POST", `/tenants/${tenant.id}/ads`, body), "Ad created.")) props.onCreated();
      }}
    >
      <h2 id="new-ad">New ad</h2>
      <Outcome failure={create.failure} done={create.done} />
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
          error={create.fieldError("slot")}
          hint="The code a theme reads as ads.<slot>"
          required
        />
        <TextField label="Weight" name="weight" type="number" value={weight} onValue={setWeight} error={create.fieldError("weight")} />
      </div>
      {kind === "image" ? (
        <div class="row">
          <SelectField
            label="Image"
            name="mediaId"
            value={mediaId}
            onValue={setMediaId}
            options={[
              ["", images.length ? "Choose…" : "Upload an image in Media first"],
              ...images.map((m): [string, string] => [String(m.id), m.filename]),
            ]}
            error={create.fieldError("mediaId")}
          />
          <TextField label="Link" name="link" type="url" value={link} onValue={setLink} error={create.fieldError("link")} />
        </div>
      ) : (
        <TextField label="HTML" name="html" value={html} onValue={setHtml} error={create.fieldError("html")} multiline={4} />
      )}
      <div class="row">
        <TextField
          label="Starts"
          name="startsAt"
          type="datetime-local"
          value={startsAt}
          onValue={setStartsAt}
          error={create.fieldError("startsAt")}
          required
        />
        <TextField label="Ends" name="endsAt" type="datetime-local" value={endsAt} onValue={setEndsAt} error={create.fieldError("endsAt")} />
      </div>
      <CheckField label="Active" checked={active} onValue={setActive} />
      <button class="primary" type="submit" disabled={create.busy}>
        Create ad
      </button>
    </form>
  );
}
