import { useRef } from "hono/jsx/dom";
import { useEffect, useState } from "../hooks";
import {
  type AllCategories,
  type AuditState,
  type Categories,
  deposits,
  type Domains,
  type History,
  type PhasedPlan,
  type Preflight,
  type Privacy,
  type Stage,
  type Steps,
  type Template,
  weChat,
} from "../api";
import { CONSOLE_BASE } from "../router";
import { CheckField, CopyButton, Loading, Outcome, Screen, SelectField, TextField, useLoad, useSubmit, When } from "../ui";
import { QuotaPanel, STAGE_ORDER, StageBadge } from "./miniprograms";

const reached = (stage: Stage, needed: Stage) => STAGE_ORDER.indexOf(stage) >= STAGE_ORDER.indexOf(needed);
type Action = ReturnType<typeof useSubmit>;
type Run = Action["run"];

/**
 * A section's data: dropped when `deps` change, read again (still shown meanwhile) when the screen's
 * `round` moves on after a change; nothing is read while the section is not `shown`. Sections stay
 * mounted and hide instead: a section unmounted with a read under way was drawn again when it ended.
 */
function useSection<T>(load: () => Promise<T>, deps: unknown[], round: number, shown = true) {
  const loaded = useLoad(() => (shown ? load() : Promise.resolve(undefined)), [...deps, shown]);
  const seen = useRef(round);
  useEffect(() => {
    if (seen.current === round) return;
    seen.current = round;
    if (shown) loaded.reload();
  }, [round]);
  return loaded;
}

/** One mini-program: its audit and release, privacy guide, domains, categories, and the steps taken with WeChat's answers. */
export function MiniprogramScreen({ path }: { path: string }) {
  const id = Number(path.split("/")[2]);
  // A change reads the steps again, and the sections that follow the stage (their `round`): a step moves the stage, and WeChat's answer is in the steps.
  const [round, setRound] = useState(0);
  const steps = useLoad(() => deposits<Steps>("/minipram/steps", { id }), [id]);
  const changed = () => {
    steps.reload();
    setRound((r) => r + 1);
  };
  const action = useSubmit();
  const mp = steps.data;
  return (
    <Screen title={mp ? mp.name : "Mini-program"}>
      <p>
        <a href={`${CONSOLE_BASE}/miniprograms`}>All mini-programs</a>
      </p>
      {!mp ? (
        <Loading failure={steps.failure} />
      ) : (
        <>
          <p>
            <StageBadge stage={mp.stage} /> {mp.appId ? <code>{mp.appId}</code> : null}
          </p>
          <Outcome failure={action.failure} done={action.done} />
          <div>
            {mp.stage === "configured" ? (
              <Authorize id={id} run={action.run} />
            ) : (
              <>
                <Release id={id} name={mp.name} stage={mp.stage} round={round} action={action} onChange={changed} />
                <QuotaPanel miniprogramId={id} round={round} />
                <PrivacyForm id={id} round={round} onChange={changed} />
                <DomainsForm id={id} onChange={changed} />
                <CategoriesPanel id={id} onChange={changed} />
              </>
            )}
          </div>
          <Timeline steps={mp.steps} />
        </>
      )}
    </Screen>
  );
}

/** Before anything else its owner authorizes the platform on WeChat's page, from this link. */
function Authorize({ id, run }: { id: number; run: Run }) {
  const [link, setLink] = useState<string | null>(null);
  return (
    <section class="panel" aria-labelledby="authorize">
      <h2 id="authorize">Authorization</h2>
      <p>The mini-program's owner opens this link on WeChat and authorizes the platform; the page then shows it authorized.</p>
      {link ? (
        <p>
          <a href={link} target="_blank" rel="noopener">
            Open the authorization page
          </a>{" "}
          <CopyButton text={link} label="Copy the link" />
        </p>
      ) : (
        <button
          type="button"
          class="primary"
          onClick={async () => {
            const made = await run(() => deposits<{ authorizeUrl: string }>("/minipram/authorize", { id }), "The link holds for 30 minutes.");
            if (made) setLink(made.authorizeUrl);
          }}
        >
          Make the authorization link
        </button>
      )}
    </section>
  );
}

/** A button that asks `question` first, then runs a WeChat write and reads the screen again. */
function Confirmed(props: {
  label: string;
  question: string;
  done: string;
  path: string;
  body: Record<string, unknown>;
  run: Run;
  onChange: () => void;
  primary?: boolean;
}) {
  return (
    <button
      type="button"
      class={props.primary ? "primary" : undefined}
      onClick={async () => {
        if (!confirm(props.question)) return;
        await props.run(() => weChat(props.path, props.body), props.done);
        // A refusal too is a step with WeChat's answer: the timeline shows it.
        props.onChange();
      }}
    >
      {props.label}
    </button>
  );
}

const AUDIT_WORDS = ["passed", "rejected", "in audit", "withdrawn", "delayed"];

/** Submit, withdraw, expedite, release in full or in phases, revert, roll back: what the stage allows. */
function Release(props: { id: number; name: string; stage: Stage; round: number; action: Action; onChange: () => void }) {
  const { id, name, stage, round, action, onChange } = props;
  const { run, busy } = action;
  const common = { body: { id }, run, onChange };
  const audit = useSection(() => deposits<AuditState>("/wxa/auditstate", { id }), [id], round, stage === "audit_submitted");
  // A passed audit moves the stage on: read it again.
  useEffect(() => {
    if (audit.data?.status === 0) onChange();
  }, [audit.data?.status]);
  const auditRunning = stage === "audit_submitted" && (audit.data?.status === 2 || audit.data?.status === 4);
  const mayCommit = reached(stage, "profile_updated") && stage !== "audit_submitted";
  const maySubmit = stage === "code_committed" || (stage === "audit_submitted" && (audit.data?.status === 1 || audit.data?.status === 3));
  return (
    <section class="panel" aria-labelledby="release">
      <h2 id="release">Audit and release</h2>
      <div>
        {stage === "audit_submitted" ? (
          audit.data ? (
            <p>
              The audit {audit.data.auditid ? <code>{audit.data.auditid}</code> : null} is{" "}
              <strong>{AUDIT_WORDS[audit.data.status] ?? audit.data.status}</strong>
              {audit.data.reason ? `: ${audit.data.reason}` : "."}{" "}
              <button type="button" onClick={audit.reload}>
                Check the audit again
              </button>
            </p>
          ) : (
            <Loading failure={audit.failure} />
          )
        ) : null}
      </div>
      <PreflightList id={id} round={round} shown={maySubmit} />
      <div class="actions">
        {maySubmit ? (
          <Confirmed
            {...common}
            primary
            label="Submit for audit"
            path="/wxa/submitaudit"
            question={`Submit ${name} to WeChat's audit? It uses one of the platform's submissions of this month.`}
            done="Submitted to WeChat's audit."
          />
        ) : null}
        {auditRunning ? (
          <>
            <Confirmed
              {...common}
              label="Withdraw the audit"
              path="/wxa/audit/withdraw"
              question={`Withdraw the audit of ${name}? The submission is not given back to the quota.`}
              done="Withdrawn: submit again when ready."
            />
            <Confirmed
              {...common}
              label="Expedite"
              path="/wxa/audit/speedup"
              question={`Expedite the audit of ${name}? It uses one of the platform's expedites of this month.`}
              done="Expedited."
            />
          </>
        ) : null}
        {stage === "audit_passed" ? (
          <Confirmed
            {...common}
            primary
            label="Release to everyone"
            path="/wxa/release"
            question={`Release ${name} to all its users now?`}
            done="Released."
          />
        ) : null}
        {stage === "phased_release" ? (
          <Confirmed
            {...common}
            label="Revert the phased release"
            path="/wxa/release/phased/revert"
            question={`Revert the phased release of ${name}? Every user goes back to the version online before it.`}
            done="The phased release is reverted."
          />
        ) : null}
      </div>
      <PhasedForm id={id} name={name} stage={stage} round={round} action={action} onChange={onChange} />
      <RollbackForm id={id} name={name} round={round} run={run} onChange={onChange} shown={stage === "released"} />
      <CommitForm id={id} run={run} busy={busy} onChange={onChange} shown={mayCommit} />
    </section>
  );
}

/** What WeChat would refuse in a submission now, each with its reason. */
function PreflightList({ id, round, shown }: { id: number; round: number; shown: boolean }) {
  const check = useSection(() => deposits<Preflight>("/wxa/preflight", { id }), [id], round, shown);
  const problems = check.data?.problems ?? [];
  // One root whatever it shows: the renderer removes exactly what it added.
  return (
    <div class="preflight" hidden={!shown}>
      {!check.data ? (
        <Loading failure={check.failure} />
      ) : problems.length === 0 ? (
        <p class="alert ok">Ready for audit: nothing WeChat would refuse was found.</p>
      ) : (
        <div class={`alert ${check.data.ready ? "warning" : "error"}`}>
          <p>{check.data.ready ? "Ready for audit, with a warning:" : "WeChat would refuse a submission now:"}</p>
          <ul>
            {problems.map((problem) => (
              <li>
                <strong>{problem.check}</strong>
                {problem.blocking ? " (blocks the submission)" : ""}: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** A share of users gets the passed version first; the share only grows, 100 % being a full release. */
function PhasedForm(props: { id: number; name: string; stage: Stage; round: number; action: Action; onChange: () => void }) {
  const [percentage, setPercentage] = useState("10");
  const plan = useSection(
    () => deposits<PhasedPlan>("/wxa/release/phased/plan", { id: props.id }),
    [props.id],
    props.round,
    props.stage === "phased_release",
  );
  const submit = props.action;
  const current = plan.data?.gray_release_plan?.gray_percentage;
  return (
    <form
      aria-labelledby="phased"
      hidden={props.stage !== "audit_passed" && props.stage !== "phased_release"}
      onSubmit={async (e: Event) => {
        e.preventDefault();
        if (!confirm(`Release ${props.name} to ${percentage} % of its users?`)) return;
        await submit.run(() => weChat("/wxa/release/phased", { id: props.id, percentage: Number(percentage) }), `Released to ${percentage} %.`);
        props.onChange();
      }}
    >
      <h3 id="phased">Phased release</h3>
      {current ? (
        <p>Now released to {current} % of its users.</p>
      ) : (
        <p>Release the passed version to a share of users first; 100 % is a full release.</p>
      )}
      <div class="row end">
        <TextField
          label="Share of users (%)"
          name="percentage"
          type="number"
          value={percentage}
          onValue={setPercentage}
          error={submit.fieldError("percentage")}
          required
        />
        <button type="submit" disabled={submit.busy}>
          {props.stage === "phased_release" ? "Raise the share" : "Release in phases"}
        </button>
      </div>
    </form>
  );
}

/** Back to an earlier version, chosen from those WeChat keeps; once per release. */
function RollbackForm(props: { id: number; name: string; round: number; run: Run; onChange: () => void; shown: boolean }) {
  const history = useSection(() => deposits<History>("/wxa/release/history", { id: props.id }), [props.id], props.round, props.shown);
  const [version, setVersion] = useState("");
  const versions = history.data?.version_list ?? [];
  const chosen = version || String(versions[0]?.app_version ?? "");
  const label = (v: (typeof versions)[number]) => `${v.user_version} (${v.user_desc}), version ${v.app_version}`;
  return (
    <form
      aria-labelledby="rollback"
      hidden={!props.shown}
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const target = versions.find((v) => String(v.app_version) === chosen);
        if (
          !target ||
          !confirm(`Roll ${props.name} back to ${label(target)}? Its users get that version at once; WeChat allows one rollback per release.`)
        )
          return;
        await props.run(
          () => weChat("/wxa/release/rollback", { id: props.id, appVersion: target.app_version }),
          `Rolled back to ${target.user_version}.`,
        );
        props.onChange();
      }}
    >
      <h3 id="rollback">Roll back</h3>
      {!history.data ? (
        <Loading failure={history.failure} />
      ) : versions.length === 0 ? (
        <p>No earlier version to roll back to.</p>
      ) : (
        <div class="row end">
          <SelectField
            label="Version"
            name="appVersion"
            value={chosen}
            onValue={setVersion}
            options={versions.map((v) => [String(v.app_version), label(v)])}
          />
          <button type="submit" class="danger">
            Roll back
          </button>
        </div>
      )}
    </form>
  );
}

/** A new version: a template's code committed (then submitted for audit). */
function CommitForm({ id, run, busy, onChange, shown }: { id: number; run: Run; busy: boolean; onChange: () => void; shown: boolean }) {
  const templates = useLoad(() => deposits<{ Data: Template[] }>("/minipram/tpls", { pageSize: 100 }), []);
  const [tplId, setTplId] = useState("");
  const list = templates.data?.Data ?? [];
  const chosen = tplId || String(list[0]?.Id ?? "");
  return (
    <form
      aria-labelledby="commit"
      hidden={!shown}
      onSubmit={async (e: Event) => {
        e.preventDefault();
        if (await run(() => weChat("/wxa/codecommit", { id, tplId: Number(chosen) }), "Committed: submit it for audit when ready.")) onChange();
      }}
    >
      <h3 id="commit">Commit a version</h3>
      {!templates.data ? (
        <Loading failure={templates.failure} />
      ) : (
        <div class="row end">
          <SelectField
            label="Template"
            name="tplId"
            value={chosen}
            onValue={setTplId}
            options={list.map((t) => [String(t.Id), `${t.Name} ${t.Version} (template ${t.Id})`])}
          />
          <button type="submit" disabled={busy || !chosen}>
            Commit
          </button>
        </div>
      )}
    </form>
  );
}

/** A field's message of the API's 400, for a list field whose items are named `field.0`, `field.1`…. */
const listError = (failure: ReturnType<typeof useSubmit>["failure"], field: string) =>
  failure ? Object.entries(failure.fields).find(([name]) => name === field || name.startsWith(`${field}.`))?.[1] : undefined;

/** The privacy guide WeChat requires before an audit (89248): a contact, how users are told, and what each privacy interface is for. */
function PrivacyForm({ id, round, onChange }: { id: number; round: number; onChange: () => void }) {
  // A commit changes what the code uses: read again on every change.
  const privacy = useSection(() => deposits<Privacy>("/wxa/privacy/get", { id }), [id], round);
  const submit = useSubmit();
  const [email, setEmail] = useState("");
  const [notice, setNotice] = useState("");
  const [texts, setTexts] = useState<Record<string, string>>({});
  // Read again after another section's change, the same guide leaves what is being typed alone.
  useEffect(() => {
    const data = privacy.data;
    if (!data) return;
    const owner = data.owner_setting ?? {};
    setEmail(typeof owner.contact_email === "string" ? owner.contact_email : "");
    setNotice(typeof owner.notice_method === "string" ? owner.notice_method : "");
    setTexts(Object.fromEntries((data.setting_list ?? []).map((s) => [s.privacy_key, s.privacy_text])));
  }, [JSON.stringify([privacy.data?.owner_setting, privacy.data?.setting_list])]);
  // What the code uses first (the guide must cover each), then what the guide says beyond it.
  const keys = [...new Set([...(privacy.data?.privacy_list ?? []), ...(privacy.data?.setting_list ?? []).map((s) => s.privacy_key)])];
  return (
    <form
      onInput={submit.edited}
      class="panel"
      aria-labelledby="privacy"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const settings = keys.filter((key) => texts[key]?.trim()).map((key) => ({ privacyKey: key, privacyText: texts[key] }));
        const ownerSetting = { ...(email ? { contactEmail: email } : {}), noticeMethod: notice };
        if (await submit.run(() => weChat("/wxa/privacy/set", { id, ownerSetting, settings }), "The privacy guide is saved.")) {
          onChange();
        }
      }}
    >
      <h2 id="privacy">Privacy guide</h2>
      {!privacy.data ? (
        <Loading failure={privacy.failure} />
      ) : (
        <>
          <p>
            {privacy.data.code_exist
              ? `The committed code uses: ${privacy.data.privacy_list?.join(", ") || "no privacy interface"}. WeChat refuses an audit whose guide leaves one out.`
              : "No code committed yet: its privacy interfaces are listed once it is."}
          </p>
          <Outcome failure={submit.failure} done={submit.done} />
          <div class="row">
            <TextField
              label="Contact email"
              name="contactEmail"
              type="email"
              value={email}
              onValue={setEmail}
              error={submit.fieldError("ownerSetting.contactEmail") ?? submit.fieldError("ownerSetting")}
            />
            <TextField
              label="How users are told"
              name="noticeMethod"
              value={notice}
              onValue={setNotice}
              error={submit.fieldError("ownerSetting.noticeMethod")}
              placeholder="A pop-up on first use"
            />
          </div>
          {keys.map((key, index) => (
            <TextField
              label={`What ${key} is used for`}
              name={`privacy-${key}`}
              value={texts[key] ?? ""}
              onValue={(value) => setTexts({ ...texts, [key]: value })}
              error={submit.fieldError(`settings.${index}.privacyText`)}
            />
          ))}
          {submit.fieldError("settings") ? <p class="field-error">{submit.fieldError("settings")}</p> : null}
          <button class="primary" type="submit" disabled={submit.busy}>
            Save the privacy guide
          </button>
        </>
      )}
    </form>
  );
}

const lines = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/** The server domains the code may call and the webview domains it may open, as WeChat checks them. */
function DomainsForm({ id, onChange }: { id: number; onChange: () => void }) {
  const domains = useLoad(() => deposits<Domains>("/wxa/domain/get", { id }), [id]);
  const submit = useSubmit();
  const [request, setRequest] = useState("");
  const [socket, setSocket] = useState("");
  const [webview, setWebview] = useState("");
  // Read again after another section's change, the same domains leave what is being typed alone.
  useEffect(() => {
    const data = domains.data;
    if (!data) return;
    setRequest((data.server?.requestdomain ?? []).join("\n"));
    setSocket((data.server?.wsrequestdomain ?? []).join("\n"));
    setWebview((data.webview ?? []).join("\n"));
  }, [JSON.stringify([domains.data?.server, domains.data?.webview])]);
  return (
    <form
      onInput={submit.edited}
      class="panel"
      aria-labelledby="domains"
      onSubmit={async (e: Event) => {
        e.preventDefault();
        const saved = await submit.run(async () => {
          await weChat("/wxa/domain/server", { id, action: "set", requestDomains: lines(request), socketDomains: lines(socket) });
          return weChat("/wxa/domain/webview", { id, action: "set", domains: lines(webview) });
        }, "The domains are saved.");
        if (saved) {
          domains.reload();
          onChange();
        }
      }}
    >
      <h2 id="domains">Domains</h2>
      {!domains.data ? (
        <Loading failure={domains.failure} />
      ) : (
        <>
          <Outcome failure={submit.failure} done={submit.done} />
          <div class="row">
            <TextField
              label="Request domains"
              name="requestDomains"
              multiline={3}
              value={request}
              onValue={setRequest}
              error={listError(submit.failure, "requestDomains")}
              hint="One a line, https:// and a host name (no IP address, path or wildcard)"
            />
            <TextField
              label="Socket domains"
              name="socketDomains"
              multiline={3}
              value={socket}
              onValue={setSocket}
              error={listError(submit.failure, "socketDomains")}
              hint="wss://…"
            />
            <TextField
              label="Webview domains"
              name="webviewDomains"
              multiline={3}
              value={webview}
              onValue={setWebview}
              error={listError(submit.failure, "domains")}
              hint="Pages the mini-program opens, https://…"
            />
          </div>
          <button class="primary" type="submit" disabled={submit.busy}>
            Save the domains
          </button>
        </>
      )}
    </form>
  );
}

interface CategoryNode {
  id: number;
  name: string;
  level: number;
  father: number;
  sensitive_type?: number;
}
const AUDIT_STATUS = ["", "in audit", "rejected", "approved"];

/** The mini-program's service categories (at least one approved before an audit), added from WeChat's list or deleted. */
function CategoriesPanel({ id, onChange }: { id: number; onChange: () => void }) {
  const mine = useLoad(() => deposits<Categories>("/wxa/category/get", { id }), [id]);
  const all = useLoad(() => deposits<AllCategories>("/wxa/category/all", { id }), [id]);
  const submit = useSubmit();
  const [pick, setPick] = useState("");
  const nodes = (all.data?.categories ?? []) as CategoryNode[];
  const options: [string, string][] = nodes
    .filter((node) => node.level === 2)
    .map((node) => [
      `${node.father}:${node.id}`,
      `${nodes.find((n) => n.id === node.father)?.name ?? node.father} / ${node.name}${node.sensitive_type ? " (needs a certificate, audited)" : ""}`,
    ]);
  const chosen = pick || options[0]?.[0] || "";
  return (
    <section class="panel" aria-labelledby="categories">
      <h2 id="categories">Service categories</h2>
      <Outcome failure={submit.failure} done={submit.done} />
      {!mine.data ? (
        <Loading failure={mine.failure} />
      ) : (mine.data.categories ?? []).length === 0 ? (
        <p>No category yet: WeChat refuses an audit without an approved one.</p>
      ) : (
        <ul class="plain">
          {(mine.data.categories ?? []).map((c) => (
            <li>
              {c.first_name} / {c.second_name}: <strong>{AUDIT_STATUS[c.audit_status] ?? c.audit_status}</strong>
              {c.audit_reason ? ` (${c.audit_reason})` : ""}{" "}
              <button
                type="button"
                onClick={async () => {
                  if (!confirm(`Delete the category ${c.first_name} / ${c.second_name}? WeChat refuses an audit without an approved one.`)) return;
                  if (await submit.run(() => weChat("/wxa/category/delete", { id, first: c.first, second: c.second }), `Deleted ${c.second_name}.`)) {
                    mine.reload();
                    onChange();
                  }
                }}
              >
                Delete<span class="visually-hidden"> {c.second_name}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={async (e: Event) => {
          e.preventDefault();
          const [first, second] = chosen.split(":").map(Number);
          const name = options.find(([value]) => value === chosen)?.[1] ?? chosen;
          if (await submit.run(() => weChat("/wxa/category/add", { id, categories: [{ first, second }] }), `Added ${name}.`)) {
            mine.reload();
            onChange();
          }
        }}
      >
        <div class="row end">
          <SelectField
            label="Add a category"
            name="category"
            value={chosen}
            onValue={setPick}
            options={options}
            error={listError(submit.failure, "categories")}
          />
          <button type="submit" disabled={submit.busy || !chosen}>
            Add
          </button>
        </div>
      </form>
    </section>
  );
}

/** A step's outcome in a few words: WeChat's errcode, or what the service answered. */
function outcomeOf(answer: unknown): string | null {
  if (answer && typeof answer === "object") {
    const a = answer as { errcode?: unknown; message?: unknown; errmsg?: unknown; error?: unknown };
    if (a.errcode === 0) return "done";
    if (typeof a.errcode === "number") return `refused (${a.errcode}): ${typeof a.message === "string" ? a.message : String(a.errmsg)}`;
    if (typeof a.error === "string") return a.error;
  }
  return null;
}

/** The steps that only read what WeChat holds (the screen makes several on each visit): hidden unless asked for. */
const READ_STEPS = new Set([
  "privacyget",
  "codeprivacy",
  "domainsget",
  "categoriesall",
  "categories",
  "pages",
  "quota",
  "phasedplan",
  "history",
  "preflight",
]);

/** Every step, newest first: when, what was asked (by which key), and WeChat's answer. */
function Timeline({ steps }: { steps: Steps["steps"] }) {
  const [reads, setReads] = useState(false);
  const shown = steps.filter((step) => reads || !READ_STEPS.has(step.step)).reverse();
  return (
    <section class="panel" aria-labelledby="timeline">
      <h2 id="timeline">Steps</h2>
      <CheckField
        label={`Show the reads too (${steps.length - steps.filter((step) => !READ_STEPS.has(step.step)).length})`}
        checked={reads}
        onValue={setReads}
      />
      {shown.length === 0 ? (
        <p>No step yet.</p>
      ) : (
        <ol class="timeline">
          {shown.map((step) => (
            <li>
              <When iso={step.at} /> <strong>{step.label}</strong>
              {step.actorKeyId ? ` (key ${step.actorKeyId})` : ""}
              {outcomeOf(step.answer) ? `: ${outcomeOf(step.answer)}` : ""}
              <details>
                <summary>Request and answer ({step.step})</summary>
                <pre class="json">{JSON.stringify({ request: step.request, answer: step.answer }, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
