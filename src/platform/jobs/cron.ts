/** The next time (UTC) a five-field cron expression of numbers, lists, ranges, steps (every 5 minutes, `1-30/2`) and `*` fires after `from`. */
export function nextCronRun(expression: string, from: Date): Date {
  const [minute, hour, day, month, weekday] = expression
    .trim()
    .split(/\s+/)
    .map((field, i) => parseField(field, FIELD_BOUNDS[i] ?? [0, 0]));
  if (!minute || !hour || !day || !month || !weekday) throw new Error(`unsupported cron expression: ${expression}`);
  const start = new Date(from);
  start.setUTCSeconds(0, 0);
  start.setUTCMinutes(start.getUTCMinutes() + 1);
  for (let d = 0; d < 800; d++) {
    const date = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + d));
    if (!month(date.getUTCMonth() + 1) || !day(date.getUTCDate()) || !weekday(date.getUTCDay())) continue;
    for (let h = 0; h < 24; h++) {
      if (!hour(h)) continue;
      for (let m = 0; m < 60; m++) {
        const candidate = new Date(date.getTime() + (h * 60 + m) * 60_000);
        if (minute(m) && candidate >= start) return candidate;
      }
    }
  }
  throw new Error(`cron expression never fires: ${expression}`);
}

/** The values of minute, hour, day of month, month and day of week. */
const FIELD_BOUNDS: [number, number][] = [
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 6],
];

function parseField(field: string, [min, max]: [number, number]): (value: number) => boolean {
  if (field === "*") return () => true;
  const allowed = new Set<number>();
  for (const part of field.split(",")) {
    const [range = "", stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    const [low, high] = range === "*" ? [min, max] : range.split("-").map(Number);
    if (low === undefined || Number.isNaN(low) || !Number.isInteger(step) || step < 1) throw new Error(`unsupported cron field: ${field}`);
    // `5/15` runs from 5 to the field's end, as `5-59/15` does.
    const last = high ?? (stepText === undefined ? low : max);
    for (let v = low; v <= last; v += step) allowed.add(v);
  }
  return (value) => allowed.has(value);
}
