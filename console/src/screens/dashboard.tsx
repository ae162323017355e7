import { get, type Ad, type AdDay, type AuditEntry, type Content, type Page, type Storage } from "../api";
import { CONSOLE_BASE } from "../router";
import { useWorkspace } from "../session";
import { Loading, RoomUse, Screen, useLoad, TableHead, When } from "../ui";
import { adName } from "../../../src/content/ad-names";
import { AuditList } from "./audit";

const WEEK_MS = 7 * 24 * 3600 * 1000;

/** Drafts, what is scheduled, what changed lately, the ads' last seven days, and how much of its room the tenant takes. */
export function DashboardScreen() {
  const { tenant, site, can } = useWorkspace();
  const base = `/tenants/${tenant.id}`;
  const load = useLoad(async () => {
    const [drafts, scheduled, recent, ads, storage] = await Promise.all([
      get<Page<Content>>(`${base}/contents?siteId=${site.id}&status=draft&size=5`),
      get<Page<Content>>(`${base}/contents?siteId=${site.id}&status=scheduled&size=5`),
      can("editor") ? get<AuditEntry[]>(`${base}/audit?size=8`) : Promise.resolve(null),
      get<Ad[]>(`${base}/sites/${site.id}/ads`),
      get<Storage>(`${base}/storage`),
    ]);
    const since = new Date(Date.now() - WEEK_MS).toISOString().slice(0, 10);
    const adWeeks = can("editor")
      ? await Promise.all(
          ads.slice(0, 12).map(async (ad) => {
            const days = (await get<AdDay[]>(`${base}/ads/${ad.id}/stats`)).filter((d) => d.day >= since);
            return { ad, impressions: days.reduce((n, d) => n + d.impressions, 0), clicks: days.reduce((n, d) => n + d.clicks, 0) };
          }),
        )
      : [];
    return { drafts, scheduled, recent, adWeeks, storage };
  }, [tenant.id, site.id]);
  return (
    <Screen title="Dashboard">
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : (
        <div class="cards">
          <article class="card">
            <h2>Drafts ({load.data.drafts.total})</h2>
            <ContentLinks items={load.data.drafts.items} empty="No drafts." />
          </article>
          <article class="card">
            <h2>Scheduled ({load.data.scheduled.total})</h2>
            <ContentLinks items={load.data.scheduled.items} empty="Nothing scheduled." when />
          </article>
          {load.data.recent ? (
            <article class="card">
              <h2>Recent changes</h2>
              {load.data.recent.length ? (
                <>
                  <AuditList entries={load.data.recent} />
                  <p>
                    <a href={`${CONSOLE_BASE}/audit`}>The whole audit log</a>
                  </p>
                </>
              ) : (
                <p>No changes yet.</p>
              )}
            </article>
          ) : null}
          <article class="card">
            <h2>Ads, last 7 days</h2>
            {load.data.adWeeks.length ? (
              <table>
                <TableHead caption="Ads, last 7 days" columns={["Ad", "Impressions", "Clicks"]} />
                <tbody>
                  {load.data.adWeeks.map((row) => (
                    <tr>
                      <td>
                        <a href={`${CONSOLE_BASE}/ads?ad=${row.ad.id}`}>{adName(row.ad)}</a>
                      </td>
                      <td>{row.impressions}</td>
                      <td>{row.clicks}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : (
              <p>No ads{can("editor") ? "" : " you can see counts of"}.</p>
            )}
          </article>
          <article class="card">
            {/* All the tenant's sites together, as the service counts them against its bounds. */}
            <h2>Room of {tenant.name}</h2>
            <RoomUse label="Media" room={load.data.storage.media} />
            <RoomUse label="Themes, unpacked" room={load.data.storage.themes} />
            <RoomUse label="Texts, every saved version" room={load.data.storage.text} />
          </article>
        </div>
      )}
    </Screen>
  );
}

function ContentLinks(props: { items: Content[]; empty: string; when?: boolean }) {
  if (!props.items.length) return <p>{props.empty}</p>;
  return (
    <ul class="plain">
      {props.items.map((content) => (
        <li>
          <a href={`${CONSOLE_BASE}/contents/${content.id}`} lang={content.language}>
            {content.title}
          </a>
          {props.when && content.publishAt ? (
            <small>
              {" "}
              <When iso={content.publishAt} />
            </small>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
