import type { Child } from "hono/jsx/dom";
import { useCallback, useId, useRef } from "hono/jsx/dom";
import { useEffect, useState } from "./hooks";
import { storageSize } from "../../src/content/media/limits";
import { api, ApiFailure, type Media, type Storage } from "./api";
import { CONSOLE_BASE } from "./router";

/**
 * Loads data for a screen; `reload` after a change. While a reload runs the screen keeps showing
 * the data it has; when the dependencies change (another content, another site) the old data is
 * dropped at once, so that nothing is shown, or edited, under the wrong id.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; failure?: ApiFailure; loading: boolean }>({ loading: true });
  const [round, setRound] = useState(0);
  const lastRound = useRef(round);
  useEffect(() => {
    let current = true;
    const reloading = lastRound.current !== round;
    lastRound.current = round;
    setState((s) => (reloading ? { ...s, loading: true } : { loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ failure: asFailure(error), loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return { ...state, reload: useCallback(() => setRound((r) => r + 1), []) };
}

/**
 * Where the focus goes once a call ends, unless the screen put it somewhere itself: a refused form's
 * first field marked invalid, else the button that was pressed, so that a keyboard user carries on
 * from where they were instead of from the top of the page.
 */
function focusAfter(pressed: HTMLElement | null, refused: boolean) {
  if (!pressed || (document.activeElement && document.activeElement !== document.body)) return;
  const invalid = refused ? pressed.closest("form")?.querySelector<HTMLElement>('[aria-invalid="true"]') : null;
  (invalid ?? (pressed.isConnected ? pressed : null))?.focus({ preventScroll: !invalid });
}

/**
 * When the focused control leaves the page (its row deleted or revoked, a list redrawn), the focus
 * goes to the screen's heading rather than to the page's start, where a keyboard or screen-reader
 * user would lose their place. Checked a frame later, after `useSubmit` has put it back where it can.
 */
export function keepFocusInScreen() {
  let focused: Element | null = null;
  document.addEventListener("focusin", (e) => (focused = e.target as Element));
  const lost = () => focused !== null && !focused.isConnected && (document.activeElement === null || document.activeElement === document.body);
  new MutationObserver(() => {
    if (lost())
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (lost()) document.getElementById("screen-title")?.focus({ preventScroll: true });
        }),
      );
  }).observe(document.body, { childList: true, subtree: true });
}

/** Tab and Shift+Tab inside a modal dialog: from its last control to its first and back, never to the page behind it. */
export function keepTabInside(e: KeyboardEvent, dialog: HTMLElement | null) {
  if (!dialog) return;
  // A radio group is one stop, its checked radio, as the browser tabs through it.
  const isRadio = (el: Element | null): el is HTMLInputElement => el instanceof HTMLInputElement && el.type === "radio";
  const stops = [...dialog.querySelectorAll<HTMLElement>("input, select, textarea, button, a[href]")].filter(
    (el) => !el.hasAttribute("disabled") && (!isRadio(el) || el.checked),
  );
  const [first, last] = [stops[0], stops.at(-1)];
  if (!first || !last) return;
  const at = document.activeElement;
  const atFirst = at === first || (isRadio(at) && isRadio(first) && at.name === first.name);
  if (!dialog.contains(at)) first.focus();
  else if (e.shiftKey && atFirst) last.focus();
  else if (!e.shiftKey && at === last) first.focus();
  else return;
  e.preventDefault();
}

export const asFailure = (error: unknown) =>
  error instanceof ApiFailure ? error : new ApiFailure(0, error instanceof Error ? error.message : String(error));

/**
 * A form's submission: runs the call, keeps the API's failure (its message above the form, each
 * field's beside the field) and says when it worked.
 */
export function useSubmit() {
  const [failure, setFailure] = useState<ApiFailure | undefined>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState("");
  const run = async <T,>(work: () => Promise<T>, success?: string): Promise<T | undefined> => {
    // The button pressed is disabled while its call runs, and the browser moves the focus to the page.
    const pressed = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    setBusy(true);
    setFailure(undefined);
    setDone("");
    let refused = false;
    try {
      const result = await work();
      if (success) setDone(success);
      return result;
    } catch (error) {
      refused = true;
      setFailure(asFailure(error));
      return undefined;
    } finally {
      setBusy(false);
      requestAnimationFrame(() => focusAfter(pressed, refused));
    }
  };
  // A form calls it on input. An edit after a save makes "Saved" untrue, and the API's message at the field edited spoke of
  // the value before: both go (the browser's own checks, and the other fields' messages, then speak alone).
  const edited = (event?: Event) => {
    setDone("");
    const field = event?.target instanceof Element ? event.target.getAttribute("name") : null;
    // A field of one language (`names.de`) answers for the message of its whole record (`names`) too.
    const stale = field ? [field, field.split(".")[0]!].filter((key) => failure && key in failure.fields) : [];
    if (!failure || stale.length === 0) return;
    const rest = Object.fromEntries(Object.entries(failure.fields).filter(([key]) => !stale.includes(key)));
    setFailure(Object.keys(rest).length ? new ApiFailure(failure.status, failure.message, rest, failure.suggestions) : undefined);
  };
  return { failure, busy, done, run, edited, fieldError: (name: string) => failure?.fields[name] };
}

/**
 * A failure's message: its first line as a sentence; the lines after it (a template's source around
 * an error) in a monospaced block. A refusal of fields says what their fields say (the top message
 * names the field by its code, "languages: …"), several as a list.
 */
function FailureText({ failure }: { failure: ApiFailure }) {
  const problems = [...new Set(Object.values(failure.fields))];
  const [said, ...source] = (problems.length === 1 ? problems[0]! : failure.message).split("\n");
  return (
    <div class="alert error" role="alert">
      {problems.length > 1 ? (
        <>
          <p>{problems.length} things to correct:</p>
          <ul>
            {problems.map((problem) => (
              <li>{problem}</li>
            ))}
          </ul>
        </>
      ) : (
        <p>{said}</p>
      )}
      {source.length ? <pre class="code-frame">{source.join("\n")}</pre> : null}
    </div>
  );
}

/** How much of one of the tenant's rooms (its media, themes or texts) it takes, as the service counts it. */
export function RoomUse(props: { label: string; room: Storage["media"] }) {
  const { usedBytes, quotaBytes } = props.room;
  return (
    <p class="storage">
      <label>
        <span>
          {props.label}: {storageSize(usedBytes)} of {storageSize(quotaBytes)} used
        </span>
        <meter min={0} max={quotaBytes} value={usedBytes} low={quotaBytes * 0.8} high={quotaBytes * 0.95} optimum={0} />
      </label>
    </p>
  );
}

/**
 * The form's outcome, announced to screen readers: an error as an alert, a success politely. A new
 * outcome off the screen (a long form saved from its foot) is scrolled into view.
 */
export function Outcome({ failure, done }: { failure?: ApiFailure; done?: string }) {
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const box = place.current;
    if (!box || (!failure && !done)) return;
    const { top, bottom } = box.getBoundingClientRect();
    if (top < 0 || bottom > window.innerHeight) box.scrollIntoView({ block: "nearest" });
  }, [failure, done]);
  return (
    <div class="outcome" ref={place}>
      {failure ? <FailureText failure={failure} /> : null}
      <p class="alert ok" role="status" aria-live="polite">
        {done ?? ""}
      </p>
    </div>
  );
}

interface FieldProps {
  /** Text, or text with a part only screen readers read (the file a field of a list is about). */
  label: Child;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  hint?: string;
  type?: string;
  required?: boolean;
  multiline?: number;
  placeholder?: string;
  disabled?: boolean;
}

/** A labelled input whose error is tied to it (aria-invalid, aria-describedby). */
export function TextField(props: FieldProps) {
  const id = useId();
  const describedBy = [props.hint ? `${id}-hint` : "", props.error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  const common = {
    id,
    name: props.name,
    value: props.value,
    required: props.required,
    placeholder: props.placeholder,
    disabled: props.disabled,
    "aria-invalid": props.error ? "true" : undefined,
    "aria-describedby": describedBy,
    onInput: (e: Event) => {
      const field = e.target as HTMLInputElement;
      // Spaces alone pass the browser's `required`: the check would then stop at the next field (a title's slug).
      if (props.required) field.setCustomValidity(field.value !== "" && field.value.trim() === "" ? "Please write more than spaces." : "");
      props.onValue(field.value);
    },
  };
  return (
    <div class={`field${props.error ? " invalid" : ""}`}>
      <label for={id}>{props.label}</label>
      {props.multiline ? <textarea rows={props.multiline} {...common} /> : <input type={props.type ?? "text"} {...common} />}
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      <FieldError id={`${id}-error`} error={props.error} />
    </div>
  );
}

/** A field's message, under it, named by the field's aria-describedby. */
const FieldError = ({ id, error }: { id: string; error?: string }) =>
  error ? (
    <small id={id} class="field-error">
      {error}
    </small>
  ) : null;

export function SelectField(props: {
  /** Text, or text with a part only screen readers read (the item of a list a field is about). */
  label: Child;
  name: string;
  value: string;
  onValue: (v: string) => void;
  options: [string, string][];
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div class={`field${props.error ? " invalid" : ""}`}>
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        disabled={props.disabled}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(e: Event) => props.onValue((e.target as HTMLSelectElement).value)}
      >
        {props.options.map(([value, text]) => (
          <option value={value} selected={value === props.value}>
            {text}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} error={props.error} />
    </div>
  );
}

export function CheckField(props: { label: string; checked: boolean; onValue: (v: boolean) => void; name?: string }) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={props.name}
        checked={props.checked}
        onChange={(e: Event) => props.onValue((e.target as HTMLInputElement).checked)}
      />{" "}
      {props.label}
    </label>
  );
}

/** A category as a select's option, indented by its depth in the tree (with inTreeOrder). */
export const categoryOption = ({ category, depth }: { category: { id: number; name: string }; depth: number }): [string, string] => [
  String(category.id),
  `${"— ".repeat(depth)}${category.name}`,
];

/**
 * Categories as their tree reads, each with its depth: a parent, then its children (in the list's
 * order among siblings), so that "Football" sits under "Sport", not between "City" and "Culture".
 * One whose parent is not in the list stands at the top.
 */
export function inTreeOrder<T extends { id: number; parentId: number | null }>(categories: T[]): { category: T; depth: number }[] {
  const ids = new Set(categories.map((c) => c.id));
  const ordered: { category: T; depth: number }[] = [];
  const add = (parentId: number | null, depth: number) => {
    for (const category of categories)
      if (category.parentId === parentId || (parentId === null && category.parentId !== null && !ids.has(category.parentId))) {
        ordered.push({ category, depth });
        add(category.id, depth + 1);
      }
  };
  add(null, 0);
  return ordered;
}

/** A screen: its heading (focused on arrival, so a screen reader hears where it is) and body. */
export function Screen(props: { title: string; actions?: Child; children: Child }) {
  useEffect(() => {
    document.title = `${props.title} · Console`;
    document.getElementById("screen-title")?.focus();
  }, [props.title]);
  return (
    <section aria-labelledby="screen-title">
      <header class="screen-head">
        <h1 id="screen-title" tabindex={-1}>
          {props.title}
        </h1>
        {props.actions ? <div class="actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}

/** A load in progress or failed, in place of the screen's data. */
export function Loading({ failure }: { failure?: ApiFailure }) {
  return failure ? <FailureText failure={failure} /> : <p aria-busy="true">Loading…</p>;
}

let languageNames: Intl.DisplayNames | undefined;

/** A language's name as the browser names it ("German" for de); undefined for a code it does not know. */
export const languageName = (code: string) => {
  try {
    return (languageNames ??= new Intl.DisplayNames([navigator.language, "en"], { type: "language", fallback: "none" })).of(code);
  } catch {
    return undefined;
  }
};

/** A code as the API takes it: a language, and a region after it (en, pt-BR). */
const LANGUAGE_CODE = /^([a-z]{2})(?:[-_]([a-z]{2}))?$/i;
/** The regional forms sites most often ask for, offered beside each language on its own. */
const REGIONAL_LANGUAGES = "de-AT de-CH en-AU en-CA en-GB en-IN en-US es-ES es-MX fr-BE fr-CA fr-CH it-CH nl-BE pt-BR pt-PT zh-CN zh-HK zh-TW".split(
  " ",
);
let languageChoiceList: [string, string][] | undefined;

/** Every language the browser names by a two-letter code, and the regional forms above: [code, name], by name. */
export function languageChoices(): [string, string][] {
  if (languageChoiceList) return languageChoiceList;
  const letters = [..."abcdefghijklmnopqrstuvwxyz"];
  // A deprecated code (iw, in) is named too, as its successor (he, id): only the canonical one is offered.
  const plain = letters.flatMap((a) => letters.map((b) => a + b)).filter((code) => languageName(code) && Intl.getCanonicalLocales(code)[0] === code);
  return (languageChoiceList = [...plain, ...REGIONAL_LANGUAGES]
    .map((code): [string, string] => [code, languageName(code) ?? code])
    .sort((a, b) => a[1].localeCompare(b[1])));
}

/**
 * The code a person means by "French (fr)", "French", "Span", "fr" or "pt_br"; else the languages
 * whose names begin with what they wrote (none, or several to choose from).
 */
function languageMeant(text: string): { code: string } | { candidates: string[] } {
  const written = text.trim();
  const code = LANGUAGE_CODE.exec(/\(([^()]+)\)$/.exec(written)?.[1] ?? written);
  if (code) return { code: code[2] ? `${code[1]!.toLowerCase()}-${code[2].toUpperCase()}` : code[1]!.toLowerCase() };
  // By the list's name ("Brazilian Portuguese") or the standard one ("Portuguese (Brazil)").
  const standard = new Intl.DisplayNames([navigator.language, "en"], { type: "language", languageDisplay: "standard", fallback: "none" });
  const sought = written.toLocaleLowerCase();
  const named = (test: (name: string) => boolean) =>
    languageChoices().filter(([code, name]) => [name, standard.of(code)].some((known) => known !== undefined && test(known.toLocaleLowerCase())));
  // A whole name, else the beginning of one language's names: "Span" is Spanish, not Spanish (Mexico).
  const [whole] = named((name) => name === sought);
  if (whole) return { code: whole[0] };
  const begun = named((name) => name.startsWith(sought));
  const language = begun.find(([code]) => !code.includes("-"))?.[0];
  if (begun.length === 1) return { code: begun[0]![0] };
  if (language && begun.every(([code]) => code.split("-")[0] === language)) return { code: language };
  return { candidates: begun.map(([, name]) => name) };
}

/**
 * A site's languages, each shown by its name with a button that removes it, and a field that adds
 * one picked from the browser's list by name (or written as a code): nobody has to know that
 * Portuguese as written in Brazil is pt-BR.
 */
export function LanguagesField(props: {
  label: string;
  value: string[];
  onValue: (codes: string[]) => void;
  hint?: string;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const input = useRef<HTMLInputElement>(null);
  const add = (text: string) => {
    if (!text.trim()) return;
    const meant = languageMeant(text);
    if ("candidates" in meant) {
      const [first, second, third, ...more] = meant.candidates;
      return setProblem(
        second
          ? `Several languages begin with “${text.trim()}” (${[first, second, third].filter(Boolean).join(", ")}${more.length ? "…" : ""}): pick one from the list`
          : `No language is called “${text.trim()}”: pick one from the list, or write its code, such as pt-BR`,
      );
    }
    const { code } = meant;
    if (!languageName(code)) return setProblem(`${code} is not a language code this browser knows: pick a language from the list`);
    setTyped("");
    // The state may already be empty (a choice taken from the list): the field is emptied as well.
    if (input.current) input.current.value = "";
    if (props.value.includes(code)) return setProblem(`${languageName(code) ?? code} is listed already`);
    setProblem(undefined);
    props.onValue([...props.value, code]);
  };
  const error = problem ?? props.error;
  const describedBy = [props.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <fieldset class={`field languages${error ? " invalid" : ""}`} disabled={props.disabled}>
      <legend>{props.label}</legend>
      <ul class="chosen-languages">
        {props.value.map((code) => (
          <li key={code}>
            {languageName(code) ?? code} <span class="meta">{code}</span>
            <button
              type="button"
              class="small"
              aria-label={`Remove ${languageName(code) ?? code}`}
              onClick={() => {
                setProblem(undefined);
                props.onValue(props.value.filter((listed) => listed !== code));
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <div class="add-language">
        <input
          ref={input}
          id={id}
          list={`${id}-choices`}
          value={typed}
          aria-label="Add a language"
          placeholder="A name or a code"
          aria-invalid={error ? "true" : undefined}
          aria-describedby={describedBy}
          onInput={(e: Event) => {
            const text = (e.target as HTMLInputElement).value;
            setTyped(text);
            setProblem(undefined);
            // A choice taken from the list is added at once; what is typed waits for Enter or Add.
            if (languageChoices().some(([code, name]) => text === `${name} (${code})`)) add(text);
          }}
          onKeyDown={(e: KeyboardEvent) => {
            if (e.key !== "Enter") return;
            // Enter adds the language; it does not send the form.
            e.preventDefault();
            add(typed);
          }}
        />
        <button type="button" onClick={() => add(typed)}>
          Add
        </button>
        <datalist id={`${id}-choices`}>
          {languageChoices().map(([code, name]) => (
            <option key={code} value={`${name} (${code})`} />
          ))}
        </datalist>
      </div>
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      <FieldError id={`${id}-error`} error={error} />
    </fieldset>
  );
}

/**
 * A field for a text in each of the site's other languages (a category's name, the site's
 * description): `field` is the API's (`names`), whose refusals name a language (`names.de`).
 */
export function PerLanguageFields(props: {
  what: string;
  field: string;
  languages: string[];
  values: Record<string, string>;
  onValues: (values: Record<string, string>) => void;
  fieldError: (name: string) => string | undefined;
  hint: (language: string) => string;
  multiline?: number;
  disabled?: boolean;
}) {
  return (
    <>
      {props.languages.map((code) => {
        const language = languageName(code) ?? code;
        return (
          <TextField
            label={`${props.what} in ${language} (${code})`}
            name={`${props.field}.${code}`}
            value={props.values[code] ?? ""}
            onValue={(text) => props.onValues({ ...props.values, [code]: text })}
            multiline={props.multiline}
            error={props.fieldError(`${props.field}.${code}`) ?? props.fieldError(props.field)}
            hint={props.hint(language)}
            disabled={props.disabled}
          />
        );
      })}
    </>
  );
}

/** What `PerLanguageFields` sends: the texts of the languages listed, trimmed; an empty one is left out, and its pages show the default. */
export const filledIn = (values: Record<string, string>, languages: string[]) =>
  Object.fromEntries(languages.map((code): [string, string] => [code, values[code]?.trim() ?? ""]).filter(([, text]) => text));

/** A moment as the reader's locale writes it, in the browser's time zone or the one named (a site's). */
export const formatDate = (iso: string | null | undefined, timeZone?: string) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short", timeZone }) : "—";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "2 hours ago", "in 7 days", "just now": how far an instant is from now, in the reader's language. */
export function relativeTime(iso: string, now = Date.now()): string {
  const ms = Date.parse(iso) - now;
  const [unit, size] = UNITS.find(([, size]) => Math.abs(ms) >= size) ?? ["second", 1000];
  if (unit === "second") return "just now";
  return new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }).format(Math.round(ms / size), unit);
}

/** An instant as people say it (relative within a week, else the local date), the full local time on hover and for machines. */
export function When({ iso }: { iso: string }) {
  const full = new Date(iso).toLocaleString(undefined, { dateStyle: "full", timeStyle: "long" });
  const near = Math.abs(Date.parse(iso) - Date.now()) < 7 * 86_400_000;
  return (
    <time datetime={iso} title={full}>
      {near ? relativeTime(iso) : formatDate(iso)}
    </time>
  );
}

/** The value of a datetime-local input as a UTC ISO instant, and back. */
export const localInputToIso = (value: string) => (value ? new Date(value).toISOString().replace(/\.\d{3}Z$/, "Z") : "");
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** Previous and next through a list of `pages` pages, and which one is shown. */
export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * A table's name and column headings, its first children: the name is read by screen readers (a list of a page's tables
 * says what each holds), the screen's headings already say it to the eye; an empty heading is the actions column.
 */
export function TableHead({ caption, columns }: { caption: string; columns: string[] }) {
  return (
    <>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column || <span class="visually-hidden">Actions</span>}</th>
          ))}
        </tr>
      </thead>
    </>
  );
}

/** Files dropped here or chosen with its button (the keyboard's way in). */
export function DropZone(props: {
  label: string;
  button: string;
  accept: string;
  multiple?: boolean;
  name?: string;
  onFiles: (files: File[]) => void;
  children?: Child;
}) {
  const [over, setOver] = useState(false);
  const id = useId();
  return (
    <div
      class={`dropzone${over ? " over" : ""}`}
      aria-labelledby={id}
      onDragOver={(e: DragEvent) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e: DragEvent) => {
        e.preventDefault();
        setOver(false);
        props.onFiles(Array.from(e.dataTransfer?.files ?? []));
      }}
    >
      <span id={id} class="visually-hidden">
        {props.label}
      </span>
      {props.children}
      <label class="button">
        {props.button}
        <input
          class="visually-hidden"
          type="file"
          name={props.name}
          multiple={props.multiple}
          accept={props.accept}
          onChange={(e: Event) => props.onFiles(Array.from((e.target as HTMLInputElement).files ?? []))}
        />
      </label>
    </div>
  );
}

/**
 * A removal: asks first (when `question` is given), sends `DELETE path` through the screen's
 * submission (its message shown as the screen's), then reloads the screen's data.
 */
export function DeleteButton(props: {
  label?: string;
  name: string;
  question?: string;
  path: string;
  done: string;
  run: ReturnType<typeof useSubmit>["run"];
  onDone: () => void;
}) {
  return (
    <button
      type="button"
      onClick={async () => {
        if (props.question && !confirm(props.question)) return;
        if (await props.run(() => api("DELETE", props.path), props.done)) {
          props.onDone();
          // Its row is gone, and a redrawn list may give this button to the next row, which a second Enter would
          // delete: the screen's heading takes the focus (the status says what was deleted).
          document.getElementById("screen-title")?.focus({ preventScroll: true });
        }
      }}
    >
      {props.label ?? "Delete"}
      <span class="visually-hidden"> {props.name}</span>
    </button>
  );
}

/** Copies a text, then says "Copied" on the button for a moment (or why it could not). */
export function CopyButton(props: { text: string; label: string; name?: string }) {
  const [said, setSaid] = useState("");
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(""), 2500);
    return () => clearTimeout(timer);
  }, [said]);
  return (
    <>
      <button
        type="button"
        class="copy"
        onClick={() =>
          navigator.clipboard
            .writeText(props.text)
            .then(() => setSaid("Copied"))
            .catch(() => setSaid("Could not copy: select it and copy by hand"))
        }
      >
        {said || props.label}
        {props.name ? <span class="visually-hidden"> {props.name}</span> : null}
      </button>
      <span class="visually-hidden" role="status">
        {said}
      </span>
    </>
  );
}

/** A small copy of an image for a picker: its narrowest resized copy where it has one. */
function thumbnail(image: Media): string {
  const narrowest = Math.min(...image.variantWidths);
  return Number.isFinite(narrowest) ? image.url.replace(/\.[a-z]+$/, `-${narrowest}w.webp`) : image.url;
}

/** A media file the browser draws as a picture: what covers, ads and the site's icons may be. */
export const isImage = (item: { contentType: string }) => item.contentType.startsWith("image/");

/** The site's images as thumbnails to choose from (radio buttons named `name`: arrow keys move between them); `value` is a media id. */
export function ImagePicker(props: { name: string; legend?: string; images: Media[]; value: string; onValue: (id: string) => void; error?: string }) {
  const id = useId();
  return (
    <fieldset class={`field image-picker${props.error ? " invalid" : ""}`} aria-describedby={props.error ? `${id}-error` : undefined}>
      <legend class="label">{props.legend ?? "Image"}</legend>
      {props.images.length === 0 ? (
        <p class="hint">
          No images on this site yet: upload one in <a href={`${CONSOLE_BASE}/media`}>Media</a> first.
        </p>
      ) : (
        <ul>
          {props.images.map((image) => (
            <li>
              <label>
                <input
                  type="radio"
                  name={props.name}
                  value={String(image.id)}
                  checked={props.value === String(image.id)}
                  onChange={() => props.onValue(String(image.id))}
                />
                <img src={thumbnail(image)} alt="" loading="lazy" width={96} height={64} />
                <span>{image.filename}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {props.error ? (
        <small id={`${id}-error`} class="field-error">
          {props.error}
        </small>
      ) : null}
    </fieldset>
  );
}
