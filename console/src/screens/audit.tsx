import { get, type AuditEntry } from "../api";
import { CONSOLE_BASE, navigate } from "../router";
import { useWorkspace } from "../session";
import { formatDate, Loading, Screen, useLoad, When } from "../ui";
import type { ScreenProps } from "./index";
import { KIND_WORDS } from "./tags";

const SIZE = 50;
const TITLE_LENGTH = 60;

/** Who published, unpublished, deleted, activated or invited what, newest first, in words. */
export function AuditScreen({ query }: ScreenProps) {
  const { tenant } = useWorkspace();
  const page = Number(query.get("page") ?? 1) || 1;
  const load = useLoad(() => get<AuditEntry[]>(`/tenants/${tenant.id}/audit?page=${page}&size=${SIZE}`), [tenant.id, page]);
  // The log has no total (it only grows): the first entry past this page says whether there is an older page.
  const older = useLoad(
    () => get<AuditEntry[]>(`/tenants/${tenant.id}/audit?page=${page * SIZE + 1}&size=1`).then((past) => past.length > 0),
    [tenant.id, page],
  );
  return (
    <Screen title="Audit log">
      {!load.data ? (
        <Loading failure={load.failure} />
      ) : load.data.length === 0 ? (
        <p>Nothing recorded{page > 1 ? " on this page" : " yet"}.</p>
      ) : (
        <AuditList entries={load.data} />
      )}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={page <= 1} onClick={() => navigate(`/audit?page=${page - 1}`)}>
          Newer
        </button>
        <span>Page {page}</span>
        <button type="button" disabled={!older.data} onClick={() => navigate(`/audit?page=${page + 1}`)}>
          Older
        </button>
      </nav>
    </Screen>
  );
}

/** Entries as sentences, each with its time (the full local time on hover); the dashboard shows the latest the same way. */
export function AuditList({ entries }: { entries: AuditEntry[] }) {
  return (
    <ul class="plain audit-log">
      {entries.map((entry) => (
        <li>
          <span>
            <AuditSentence entry={entry} />
          </span>{" "}
          <small>
            <When iso={entry.at} />
          </small>
        </li>
      ))}
    </ul>
  );
}

/** The verb of each action whose sentence is the same but for it (a category, a theme). */
const VERBS: Record<string, string> = {
  "create-category": "created",
  "change-category": "changed",
  "delete-category": "deleted",
  "upload-theme": "uploaded",
  "create-ad": "created",
  "change-ad": "changed",
  "delete-ad": "deleted",
  "delete-theme": "deleted",
};

const shortened = (text: string) => (text.length > TITLE_LENGTH ? `${text.slice(0, TITLE_LENGTH - 1).trimEnd()}…` : text);

/** "owner@example.com published ‘Museum night…’", the title a link to the content while it exists. */
function AuditSentence({ entry }: { entry: AuditEntry }) {
  const who = entry.who ? entry.who.fullName || entry.who.email : entry.userId === 0 ? "The service" : `A former member (${entry.userId})`;
  // A trashed or erased content's title is in the subject: "content 12 (Title)", a restore's with "to version 3".
  const [, keptTitle, restoredVersion] = /^content \d+ \((.*)\)(?: to version (\d+))?$/.exec(entry.subject) ?? [];
  const title = entry.content?.title ?? keptTitle ?? `a content (#${entry.contentId ?? "?"})`;
  const content = entry.content ? <a href={`${CONSOLE_BASE}/contents/${entry.content.id}`}>‘{shortened(title)}’</a> : <q>{shortened(title)}</q>;
  const scheduledFor = / at (\S+)$/.exec(entry.subject)?.[1];
  const theme = /^site \d+: (\S+) \(was (\S+)\)$/.exec(entry.subject);
  const [email, role] = entry.subject.split(/ (?:as|to) /);
  switch (entry.action) {
    case "publish":
      return (
        <>
          {who} published {content}
        </>
      );
    case "schedule":
      return (
        <>
          {who} scheduled {content}
          {scheduledFor ? ` for ${formatDate(scheduledFor)}` : ""}
        </>
      );
    case "update":
      return (
        <>
          {who} updated {content} on the site
        </>
      );
    case "unpublish":
      return (
        <>
          {who} took {content} back to draft
        </>
      );
    case "delete":
      return (
        <>
          {who} moved {content} to the trash
        </>
      );
    case "restore":
      return (
        <>
          {who} restored {content} from the trash
        </>
      );
    case "restore-version":
      return (
        <>
          {who} restored version {restoredVersion ?? "?"} of {content}
        </>
      );
    case "erase":
      return (
        <>
          {who} deleted {content} for good
        </>
      );
    case "activate-theme":
      return theme ? (
        <>
          {who} activated the theme <q>{theme[1]}</q> (was <q>{theme[2]}</q>)
        </>
      ) : (
        <>
          {who} activated a theme: {entry.subject}
        </>
      );
    case "upload-theme":
    case "delete-theme": {
      const name = /^site \d+: (\S+)$/.exec(entry.subject)?.[1] ?? entry.subject;
      return (
        <>
          {who} {VERBS[entry.action]} the theme <q>{name}</q>
        </>
      );
    }
    case "retire-theme":
      return <>The service went back to the previous theme: {entry.subject}</>;
    case "invite":
      return (
        <>
          {who} invited {email} as {role}
        </>
      );
    case "withdraw-invitation":
      return (
        <>
          {who} withdrew the invitation of {email} as {role}
        </>
      );
    case "join":
      return (
        <>
          {who} accepted the invitation and joined as {role}
        </>
      );
    case "add-member":
      return (
        <>
          {who} added {email} as {role}
        </>
      );
    case "change-role":
      return (
        <>
          {who} made {email} {role === "author" || role === "editor" || role === "owner" ? "an" : "a"} {role}
        </>
      );
    case "create-key":
      return (
        <>
          {who} created the API key <q>{entry.subject}</q>
        </>
      );
    case "revoke-key":
      return (
        <>
          {who} revoked the API key <q>{entry.subject}</q>
        </>
      );
    case "put-redirect":
      return (
        <>
          {who} redirected {entry.subject}
        </>
      );
    case "delete-redirect":
      return (
        <>
          {who} deleted the redirect {entry.subject}
        </>
      );
    // "… created the ad “Winter sale (sidebar)”": the verb from the table, the noun from the action.
    case "create-ad":
    case "change-ad":
    case "delete-ad":
    case "create-category":
    case "change-category":
    case "delete-category":
      return (
        <>
          {who} {VERBS[entry.action]} the {entry.action.slice(entry.action.indexOf("-") + 1)} <q>{entry.subject}</q>
        </>
      );
    case "put-tag":
    case "delete-tag": {
      const [kind = "", ...name] = entry.subject.split(" ");
      const kinds: Record<string, string | undefined> = KIND_WORDS;
      return (
        <>
          {who} {entry.action === "put-tag" ? "saved" : "deleted"} the {kinds[kind] ?? kind} <q>{name.join(" ")}</q>
        </>
      );
    }
    case "change-site": {
      const split = entry.subject.lastIndexOf(": ");
      return (
        <>
          {who} changed the site <q>{entry.subject.slice(0, split)}</q>: {entry.subject.slice(split + 2)}
        </>
      );
    }
    case "remove-member":
      return (
        <>
          {who} removed {entry.subject}
        </>
      );
    default:
      return (
        <>
          {who}: {entry.action} {entry.subject}
        </>
      );
  }
}
