import { useState } from "../hooks";
import { deposits, type Miniprogram, type Quota, type Stage } from "../api";
import { CONSOLE_BASE, navigate } from "../router";
import { Loading, Outcome, Pager, Screen, TableHead, TextField, useLoad, useSubmit } from "../ui";
import type { ScreenProps } from "./index";
import { RolloutForm } from "./rollout-form";

/** The most D1 answers a page (`pageSize`): an account keeps up to 1,000. */
const PAGE_SIZE = 100;

/** A stage in words, in the order a mini-program goes through them. */
export const STAGE_WORDS: Record<Stage, string> = {
  configured: "Configured: waiting for its owner's authorization",
  authorized: "Authorized",
  name_verified: "Name verified",
  profile_updated: "Profile set",
  code_committed: "Code committed",
  audit_submitted: "In WeChat's audit",
  audit_passed: "Audit passed",
  phased_release: "Phased release",
  released: "Released",
};

/** The stages in the order a mini-program goes through them. */
export const STAGE_ORDER = Object.keys(STAGE_WORDS) as Stage[];

export const StageBadge = ({ stage }: { stage: Stage }) => (
  <span class={`badge${stage === "released" ? " published" : stage === "phased_release" || stage === "audit_submitted" ? " scheduled" : ""}`}>
    {STAGE_WORDS[stage]}
  </span>
);

/** The platform's audit quota of the month, shared by all its mini-programs (read through any authorized one). */
export function QuotaPanel({ miniprogramId, round = 0 }: { miniprogramId: number; round?: number }) {
  const quota = useLoad(() => deposits<Quota>("/wxa/audit/quota", { id: miniprogramId }), [miniprogramId, round]);
  return (
    <section class="panel" aria-labelledby="quota">
      <h2 id="quota">Audit quota this month</h2>
      {!quota.data ? (
        <Loading failure={quota.failure} />
      ) : (
        <p>
          <strong>{quota.data.rest ?? 0}</strong> of {quota.data.limit ?? 0} submissions left, <strong>{quota.data.speedup_rest ?? 0}</strong> of{" "}
          {quota.data.speedup_limit ?? 0} expedites: shared by all the platform's mini-programs; a withdrawal gives none back.
        </p>
      )}
    </section>
  );
}

/** Group D: the signed-in person's mini-programs on WeChat, each with its stage; a new one. */
export function MiniprogramsScreen({ query }: ScreenProps) {
  const page = Number(query.get("page") ?? 1) || 1;
  const list = useLoad(() => deposits<{ Total: number; Data: Miniprogram[] }>("/minipram/list", { pageSize: PAGE_SIZE, pageNumber: page }), [page]);
  const pages = list.data ? Math.max(1, Math.ceil(list.data.Total / PAGE_SIZE)) : 1;
  const create = useSubmit();
  const [name, setName] = useState("");
  const authorized = list.data?.Data.find((mp) => mp.Stage !== "configured");
  // Ticked for a fleet rollout: those whose profile is set (a rollout commits code).
  const [ticked, setTicked] = useState<number[]>([]);
  const mayRollOut = (stage: Stage) => STAGE_ORDER.indexOf(stage) >= STAGE_ORDER.indexOf("profile_updated");
  const chosen = (list.data?.Data ?? []).filter((mp) => ticked.includes(mp.Id) && mayRollOut(mp.Stage));
  return (
    <Screen title="Mini-programs">
      <p>
        Your WeChat mini-programs (yours, whichever tenant is chosen above), from configuration to release. Open one for its privacy guide, domains,
        categories, audit and release, and every step taken with WeChat's answer; tick several to roll a version out to them at once (
        <a href={`${CONSOLE_BASE}/miniprograms/rollouts`}>fleet rollouts</a>).
      </p>
      {authorized ? <QuotaPanel miniprogramId={authorized.Id} /> : null}
      {!list.data ? (
        <Loading failure={list.failure} />
      ) : list.data.Data.length === 0 ? (
        <p>No mini-program yet.</p>
      ) : (
        <table>
          <TableHead caption="Mini-programs" columns={["Roll out", "Name", "Stage", "App id"]} />
          <tbody>
            {list.data.Data.map((mp) => (
              <tr>
                <td>
                  {mayRollOut(mp.Stage) ? (
                    <input
                      type="checkbox"
                      aria-label={`Roll out to ${mp.Name}`}
                      checked={ticked.includes(mp.Id)}
                      onChange={(e: Event) =>
                        setTicked((now) => ((e.target as HTMLInputElement).checked ? [...now, mp.Id] : now.filter((x) => x !== mp.Id)))
                      }
                    />
                  ) : null}
                </td>
                <td>
                  <a href={`${CONSOLE_BASE}/miniprograms/${mp.Id}`}>{mp.Name}</a>
                </td>
                <td>
                  <StageBadge stage={mp.Stage} />
                </td>
                <td>{mp.AppId ? <code>{mp.AppId}</code> : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 ? <Pager page={page} pages={pages} onPage={(to) => navigate(`/miniprograms?page=${to}`)} /> : null}
      {list.data?.Data.some((mp) => mayRollOut(mp.Stage)) ? <RolloutForm chosen={chosen} /> : null}
      <form
        onInput={create.edited}
        class="panel"
        aria-labelledby="new-miniprogram"
        onSubmit={async (e: Event) => {
          e.preventDefault();
          const created = await create.run(() => deposits<{ id: number }>("/minipram/create", { name }));
          if (created) navigate(`/miniprograms/${created.id}`);
        }}
      >
        <h2 id="new-miniprogram">A new mini-program</h2>
        <Outcome failure={create.failure} done={create.done} />
        <TextField
          label="Name"
          name="name"
          value={name}
          onValue={setName}
          error={create.fieldError("name")}
          hint="At most 30 characters; its owner then authorizes the platform from the link on its page"
          required
        />
        <button class="primary" type="submit" disabled={create.busy}>
          Create
        </button>
      </form>
    </Screen>
  );
}
