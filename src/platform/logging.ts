type Level = "info" | "warn" | "error";

/** One JSON object per line, so Workers Logs can filter on any field. */
export function logEvent(level: Level, fields: Record<string, unknown>): void {
  const line = JSON.stringify({ level, ...fields });
  if (level === "error") console.error(line);
  else if (level === "warn") console.warn(line);
  else console.log(line);
}

/** A log bound to what it serves (a request id, a queue message, a job run): every line carries it. */
export interface Logger {
  info(fields: Record<string, unknown>): void;
  warn(fields: Record<string, unknown>): void;
  error(fields: Record<string, unknown>): void;
}

export function logger(bound: Record<string, unknown>): Logger {
  return {
    info: (fields) => logEvent("info", { ...bound, ...fields }),
    warn: (fields) => logEvent("warn", { ...bound, ...fields }),
    error: (fields) => logEvent("error", { ...bound, ...fields }),
  };
}
