/**
 * Failures of the parts the Worker runs on (D1, KV, R2, Queues), told apart from bugs: they pass
 * in seconds, so a caller is told to retry (503 with Retry-After) rather than shown a 500. The
 * bindings throw plain `Error`s; their messages are the only sign of which is which.
 */
const STORAGE_FAILURE = [
  // D1: its own errors, except those that report the query itself (a constraint, a syntax error).
  /^D1_(?!.*(?:constraint failed|SQLITE_CONSTRAINT|syntax error|no such (?:table|column)|SQLITE_TOOBIG))/,
  /^KV (?:GET|PUT|DELETE|LIST|GET_WITH_METADATA) failed/i,
  // R2 answers `<operation>: <message> (<code>)`; 10001 internal error, 10043 unavailable, 10058 too many requests.
  /^(?:get|put|head|delete|list|createMultipartUpload|uploadPart|completeMultipartUpload): .*\((?:10001|10043|10058)\)$/,
  /^Queue (?:send|sendBatch) failed/i,
  /Network connection lost|timed out|Durable Object reset|storage operation exceeded|internal error; reference = /i,
];

/** Where the binding's own error sits: Drizzle wraps it as the `cause` of a "Failed query" error. */
function causes(error: unknown): Error[] {
  const chain: Error[] = [];
  for (let at = error; at instanceof Error && chain.length < 5; at = at.cause) chain.push(at);
  return chain;
}

export function isStorageFailure(error: unknown): boolean {
  return causes(error).some((e) => STORAGE_FAILURE.some((pattern) => pattern.test(e.message)));
}

/**
 * An error for the log without what a query was given: Drizzle's message holds the query's
 * parameters (hashes, e-mail addresses, sealed secrets), so it names the SQL and the cause only,
 * and the stack keeps its frames, not its first line (which repeats the message).
 */
export function describeFailure(error: unknown): { error: string; stack?: string } {
  if (!(error instanceof Error)) return { error: String(error) };
  const said = causes(error).map((e) => `${e.name}: ${"query" in e && typeof e.query === "string" ? `Failed query: ${e.query}` : e.message}`);
  const frames = error.stack
    ?.split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
  return { error: said.join(" ← "), ...(frames ? { stack: frames } : {}) };
}

/** What went wrong in a line a person reads (a job run's error): the innermost cause, the binding's own words. */
export function failureText(error: unknown): string {
  const chain = causes(error);
  const innermost = chain.at(-1);
  return innermost ? innermost.message : String(error);
}
