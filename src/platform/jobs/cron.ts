/** The next time (UTC) a five-field cron expression of numbers, lists, ranges and `*` fires after `from`. */
export function nextCronRun(expression: string, from: Date): Date {
  const [minute, hour, day, month, weekday] = expression.trim().split(/\s+/).map(parseField);
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

function parseField(field: string): (value: number) => boolean {
  if (field === "*") return () => true;
  const allowed = new Set<number>();
  for (const part of field.split(",")) {
    const [low, high] = part.split("-").map(Number);
    if (low === undefined || Number.isNaN(low)) throw new Error(`unsupported cron field: ${field}`);
    for (let v = low; v <= (high ?? low); v++) allowed.add(v);
  }
  return (value) => allowed.has(value);
}
