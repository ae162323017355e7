import { useEffect } from "../hooks";
import { type FleetProgress, type FleetRolloutSummary, type FleetState, get } from "../api";
import { CONSOLE_BASE } from "../router";
import { Loading, Screen, TableHead, useLoad, When } from "../ui";
import { StageBadge } from "./miniprograms";

/** A mini-program's state in a rollout, in words, in the order it goes through them. */
const STATE_WORDS: Record<FleetState, string> = {
  pending: "Waiting to start",
  committed: "Code committed",
  quota_wait: "Waiting for audit quota",
  submitting: "Being submitted",
  auditing: "In WeChat's audit",
  phased: "Phased release",
  released: "Released",
  reverted: "Reverted",
  failed: "Stopped",
};
const FINAL: FleetState[] = ["released", "reverted", "failed"];

const StateBadge = ({ state }: { state: FleetState }) => (
  <span
    class={`badge${state === "released" ? " published" : state === "failed" || state === "reverted" ? " stopped" : FINAL.includes(state) ? "" : " scheduled"}`}
  >
    {STATE_WORDS[state]}
  </span>
);

/** "2 released · 1 in WeChat's audit": the states a rollout's mini-programs are in, those with none left out. */
const countsInWords = (counts: FleetProgress["counts"]) =>
  (Object.keys(STATE_WORDS) as FleetState[])
    .filter((state) => counts[state] > 0)
    .map((state) => `${counts[state]} ${STATE_WORDS[state].toLowerCase()}`)
    .join(" · ");

const finishedOf = (counts: FleetProgress["counts"]) => FINAL.reduce((n, state) => n + counts[state], 0);

/** How often a running rollout's page reads its progress again (the scheduler moves it every 5 minutes, a queue step in seconds). */
const REFRESH_SECONDS = 5;

/** Calls `reload` every few seconds while `running` and the tab is shown; at once when the tab is shown again. */
function useRefresh(reload: () => void, running: boolean) {
  useEffect(() => {
    if (!running) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      timer ??= setInterval(reload, REFRESH_SECONDS * 1000);
    };
    const stop = () => {
      clearInterval(timer);
      timer = undefined;
    };
    const onVisibility = () => {
      if (document.hidden) return stop();
      reload();
      start();
    };
    if (!document.hidden) start();
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      stop();
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [running]);
}

/** The signed-in person's fleet rollouts, newest first, with where their mini-programs are. */
export function RolloutsScreen() {
  const rollouts = useLoad(() => get<FleetRolloutSummary[]>("/deposits/fleet/rollouts"), []);
  useRefresh(rollouts.reload, Boolean(rollouts.data?.some((r) => !r.finishedAt)));
  return (
    <Screen title="Fleet rollouts">
      <p>
        <a href={`${CONSOLE_BASE}/miniprograms`}>All mini-programs</a> (tick several there to roll a version out to them).
      </p>
      {!rollouts.data ? (
        <Loading failure={rollouts.failure} />
      ) : rollouts.data.length === 0 ? (
        <p>No rollout yet.</p>
      ) : (
        <table class="fleet">
          <TableHead caption="Rollouts" columns={["Rollout", "Started", "Where they are", "Finished"]} />
          <tbody>
            {rollouts.data.map((r) => (
              <tr>
                <td>
                  <a href={`${CONSOLE_BASE}/miniprograms/rollouts/${r.id}`}>
                    Rollout {r.id}: template {r.templateId} ({r.templateVersion})
                  </a>
                </td>
                <td>
                  <When iso={r.createdAt} />
                </td>
                <td>
                  {finishedOf(r.counts)} of {r.total} finished: {countsInWords(r.counts)}
                </td>
                <td>{r.finishedAt ? <When iso={r.finishedAt} /> : <span class="badge scheduled">Running</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Screen>
  );
}

/** One rollout: its choices, its counts, and each mini-program's state, stage, last step and error; read again while it runs. */
export function RolloutScreen({ path }: { path: string }) {
  const id = Number(path.split("/")[3]);
  const progress = useLoad(() => get<FleetProgress>(`/deposits/fleet/rollouts/${id}`), [id]);
  const r = progress.data;
  useRefresh(progress.reload, Boolean(r && !r.finishedAt));
  return (
    <Screen title={r ? `Rollout ${r.id}: template ${r.templateId} (${r.templateVersion})` : `Rollout ${id}`}>
      <p>
        <a href={`${CONSOLE_BASE}/miniprograms/rollouts`}>All rollouts</a> · <a href={`${CONSOLE_BASE}/miniprograms`}>All mini-programs</a>
      </p>
      {!r ? (
        <Loading failure={progress.failure} />
      ) : (
        <>
          <section class="panel" aria-labelledby="rollout-summary">
            <h2 id="rollout-summary">
              {finishedOf(r.counts)} of {r.total} finished
            </h2>
            <progress value={finishedOf(r.counts)} max={r.total} aria-labelledby="rollout-summary" />
            <p class="counts">{countsInWords(r.counts)}</p>
            <p>
              Started <When iso={r.createdAt} />;{" "}
              {r.phases.length ? `phases ${r.phases.join(" %, ")} %, ${r.stepMinutes} minutes each` : "released to everyone at once"}; audits
              expedited {r.expeditesUsed} of {r.expediteBudget}; a phase with more than {r.maxJsErrors} JS errors is reverted.
            </p>
            <p class="meta" role="status">
              {r.finishedAt ? (
                <>
                  Finished <When iso={r.finishedAt} />.
                </>
              ) : (
                <>Running: read again every {REFRESH_SECONDS} seconds while this page is shown.</>
              )}
            </p>
          </section>
          <table class="fleet">
            <TableHead caption="Mini-programs of this rollout" columns={["Mini-program", "State", "Stage", "Last step", "Updated"]} />
            <tbody>
              {r.miniprograms.map((mp) => (
                <tr>
                  <td>
                    <a href={`${CONSOLE_BASE}/miniprograms/${mp.id}`}>{mp.name}</a>
                  </td>
                  <td>
                    <StateBadge state={mp.state} />
                    {mp.percentage !== null && mp.state === "phased" ? ` ${mp.percentage} %` : ""}
                    {mp.expedited ? <small title="The audit was expedited"> (expedited)</small> : null}
                  </td>
                  <td class="stage">
                    <StageBadge stage={mp.stage} />
                  </td>
                  <td class="step">
                    {mp.lastStep}
                    {mp.error ? <p class="field-error">{mp.error}</p> : null}
                  </td>
                  <td class="updated">
                    <When iso={mp.updatedAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </Screen>
  );
}
