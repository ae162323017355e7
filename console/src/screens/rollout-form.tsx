import { useEffect, useState } from "../hooks";
import { api, deposits, type FleetProgress, type FleetRolloutBody, type Miniprogram, type Quota, type Template } from "../api";
import { CONSOLE_BASE, navigate } from "../router";
import { Loading, Outcome, SelectField, TextField, useLoad, useSubmit } from "../ui";

/** "10, 50" as the phases' percentages; an empty text is none (a full release at once). */
const phasesOf = (text: string) =>
  text
    .split(/[\s,;%]+/)
    .filter(Boolean)
    .map(Number);

/** A failing field's message, for a list field whose items are named `field.0`, `field.1`…. */
const fieldOrItem = (fields: Record<string, string> | undefined, field: string) =>
  fields ? Object.entries(fields).find(([name]) => name === field || name.startsWith(`${field}.`))?.[1] : undefined;

/**
 * A template rolled out to the mini-programs ticked in the list: the choices, then a question that
 * says what will happen (the submissions and expedites it takes from the platform's month), then the rollout's page.
 */
export function RolloutForm({ chosen }: { chosen: Miniprogram[] }) {
  const templates = useLoad(() => deposits<{ Data: Template[] }>("/minipram/tpls", { pageSize: 100 }), []);
  const submit = useSubmit();
  const [tplId, setTplId] = useState("");
  const [phases, setPhases] = useState("10, 50");
  const [stepMinutes, setStepMinutes] = useState("60");
  const [expediteBudget, setExpediteBudget] = useState("0");
  const [maxJsErrors, setMaxJsErrors] = useState("20");
  const [review, setReview] = useState<{ quota?: Quota } | null>(null);
  const list = templates.data?.Data ?? [];
  const template = list.find((t) => String(t.Id) === tplId) ?? list[0];
  const body: FleetRolloutBody = {
    templateId: template?.Id ?? 0,
    miniprogramIds: chosen.map((mp) => mp.Id),
    phases: phasesOf(phases),
    stepMinutes: Number(stepMinutes),
    expediteBudget: Number(expediteBudget),
    maxJsErrors: Number(maxJsErrors),
  };
  // A changed choice asks again.
  useEffect(() => setReview(null), [JSON.stringify(body)]);
  const fields = submit.failure?.fields;
  return (
    <form
      onInput={submit.edited}
      class="panel"
      aria-labelledby="rollout"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        if (!review) {
          // The quota as it is now, for the question; the question is asked without it if it cannot be read.
          const quota = await deposits<Quota>("/wxa/audit/quota", { id: chosen[0]!.Id }).catch(() => undefined);
          return setReview({ quota });
        }
        const started = await submit.run(() => api<FleetProgress>("POST", "/deposits/fleet/rollouts", body));
        if (started) navigate(`/miniprograms/rollouts/${started.id}`);
        else setReview(null);
      }}
    >
      <h2 id="rollout">Roll out a version to several</h2>
      <p>
        Tick the mini-programs above (each with its profile set, in no other running rollout): each gets the template's code, is checked, submitted to
        WeChat's audit, then released in phases. <a href={`${CONSOLE_BASE}/miniprograms/rollouts`}>All rollouts</a>
      </p>
      <Outcome failure={submit.failure} done={submit.done} />
      {!templates.data ? (
        <Loading failure={templates.failure} />
      ) : (
        <>
          <div class="row">
            <SelectField
              label="Template"
              name="templateId"
              value={String(template?.Id ?? "")}
              onValue={setTplId}
              options={list.map((t) => [String(t.Id), `${t.Name} ${t.Version} (template ${t.Id})`])}
              error={fields?.templateId}
            />
            <TextField
              label="Phases (% of users)"
              name="phases"
              value={phases}
              onValue={setPhases}
              error={fieldOrItem(fields, "phases")}
              hint="Rising shares, e.g. 10, 50; empty: everyone at once"
            />
          </div>
          <div class="row">
            <TextField
              label="Minutes at each phase"
              name="stepMinutes"
              type="number"
              value={stepMinutes}
              onValue={setStepMinutes}
              error={fields?.stepMinutes}
              hint="5 to 10080"
            />
            <TextField
              label="Audits to expedite"
              name="expediteBudget"
              type="number"
              value={expediteBudget}
              onValue={setExpediteBudget}
              error={fields?.expediteBudget}
              hint="From the platform's expedites of the month"
            />
            <TextField
              label="Revert above this many JS errors"
              name="maxJsErrors"
              type="number"
              value={maxJsErrors}
              onValue={setMaxJsErrors}
              error={fields?.maxJsErrors}
              hint="Counted during each phase"
            />
          </div>
          {fieldOrItem(fields, "miniprogramIds") ? <p class="field-error">{fieldOrItem(fields, "miniprogramIds")}</p> : null}
          {review && template ? <RolloutQuestion body={body} template={template} chosen={chosen} quota={review.quota} /> : null}
          <div class="actions">
            <button class="primary" type="submit" disabled={submit.busy || chosen.length === 0 || !template}>
              {review ? "Start the rollout" : `Review the rollout of ${chosen.length} mini-program${chosen.length === 1 ? "" : "s"}`}
            </button>
            {review ? (
              <button type="button" onClick={() => setReview(null)}>
                Change it
              </button>
            ) : null}
          </div>
        </>
      )}
    </form>
  );
}

/** What starting the rollout will do, said before it starts. */
function RolloutQuestion(props: { body: FleetRolloutBody; template: Template; chosen: Miniprogram[]; quota?: Quota }) {
  const { body, template, chosen, quota } = props;
  const phases = body.phases ?? [];
  const n = chosen.length;
  return (
    <div class="alert warning" role="region" aria-label="What the rollout will do">
      <p>
        <strong>
          Roll {template.Name} {template.Version} out to {n} mini-program{n === 1 ? "" : "s"}: {chosen.map((mp) => mp.Name).join(", ")}?
        </strong>
      </p>
      <ul>
        <li>
          Each gets the template's code committed, is checked (privacy guide, categories, domains) and submitted to WeChat's audit: {n} of the
          platform's submissions of this month{quota ? `, which has ${quota.rest ?? 0} left` : ""}. A mini-program WeChat would refuse stops there.
        </li>
        <li>
          {body.expediteBudget
            ? `Up to ${body.expediteBudget} audit${body.expediteBudget === 1 ? " is" : "s are"} expedited, from the platform's expedites of this month${quota ? ` (${quota.speedup_rest ?? 0} left)` : ""}.`
            : "No audit is expedited."}
        </li>
        <li>
          {phases.length
            ? `A passed audit is released to ${phases.join(" %, then ")} % of users, each share held ${body.stepMinutes} minutes, then to everyone; more than ${body.maxJsErrors} JS errors during a share reverts that mini-program's phased release. One with nothing online yet is released to everyone at once.`
            : "A passed audit is released to everyone at once."}
        </li>
        <li>The scheduler takes the first steps within 5 minutes; the rollout's page shows where each mini-program is.</li>
      </ul>
    </div>
  );
}
