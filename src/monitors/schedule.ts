import { ApiError } from "../lib/errors";

/**
 * A monitor's schedule: `{every: "6h"}` (every N hours, 1 to 720, or N days, 1 to 30) or
 * `{cron: "15 6 * * 1-5"}` (five fields, UTC) whose minute is one fixed number, so it never runs
 * more often than hourly. The next run is always computed from now (after a run, or when a
 * paused monitor resumes), so a run missed while nothing ran is made once, not once per miss.
 */

export const HOUR_SECS = 3600;
export const MIN_EVERY_SECS = HOUR_SECS;
export const MAX_EVERY_SECS = 30 * 24 * HOUR_SECS;
/** A cron expression whose next time is further off than this is refused (e.g. `0 0 30 2 *`, never). */
const CRON_HORIZON_HOURS = 366 * 24;

export type Schedule = { everySecs: number; cron: null } | { everySecs: null; cron: string };

/** `6h`, `2d`: whole hours or days; anything else is 400. */
export function parseEvery(every: string): number {
  const match = /^([1-9][0-9]{0,3})([hd])$/.exec(every.trim());
  if (!match) throw ApiError.invalid(`Invalid request: schedule.every must be a number of hours or days, like "6h" or "2d" (got "${every}").`);
  const secs = Number(match[1]) * (match[2] === "d" ? 24 * HOUR_SECS : HOUR_SECS);
  if (secs < MIN_EVERY_SECS || secs > MAX_EVERY_SECS) throw ApiError.invalid("Invalid request: schedule.every must be from 1h to 30d.");
  return secs;
}

/** `every_secs` written back the way it is given: days when whole, else hours. */
export function formatEvery(secs: number): string {
  return secs % (24 * HOUR_SECS) === 0 ? `${secs / (24 * HOUR_SECS)}d` : `${secs / HOUR_SECS}h`;
}

interface CronFields {
  minute: number;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

function field(text: string, name: string, min: number, max: number): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw ApiError.invalid(`Invalid request: the cron expression's ${name} field "${text}" is not a number, range, list or step.`);
    const from = match[1] === "*" ? min : Number(match[2]);
    const to = match[1] === "*" ? max : match[3] !== undefined ? Number(match[3]) : match[4] !== undefined ? max : from;
    const step = match[4] !== undefined ? Number(match[4]) : 1;
    if (from < min || to > max || from > to || step < 1) {
      throw ApiError.invalid(`Invalid request: the cron expression's ${name} field "${text}" must stay within ${min} to ${max}.`);
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

function parseCron(expression: string): CronFields {
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5) throw ApiError.invalid("Invalid request: schedule.cron must have five fields (minute hour day-of-month month day-of-week), in UTC.");
  const [minute, hour, day, month, weekday] = parts as [string, string, string, string, string];
  if (!/^\d{1,2}$/.test(minute) || Number(minute) > 59) {
    throw ApiError.invalid("Invalid request: schedule.cron's minute must be one number from 0 to 59: a monitor runs at most once an hour.");
  }
  const weekdays = field(weekday, "day-of-week", 0, 7);
  if (weekdays.delete(7)) weekdays.add(0);
  return {
    minute: Number(minute),
    hours: field(hour, "hour", 0, 23),
    days: field(day, "day-of-month", 1, 31),
    months: field(month, "month", 1, 12),
    weekdays,
    daysRestricted: day !== "*",
    weekdaysRestricted: weekday !== "*",
  };
}

function cronMatches(fields: CronFields, at: Date): boolean {
  if (!fields.hours.has(at.getUTCHours()) || !fields.months.has(at.getUTCMonth() + 1)) return false;
  const dayOk = fields.days.has(at.getUTCDate());
  const weekdayOk = fields.weekdays.has(at.getUTCDay());
  // Cron's rule: when both day fields are restricted, either one matching is enough.
  if (fields.daysRestricted && fields.weekdaysRestricted) return dayOk || weekdayOk;
  return dayOk && weekdayOk;
}

/** The first time after `after` the expression names, or null within a year and a day. */
function nextCronTime(fields: CronFields, after: number): number | null {
  const start = new Date(after);
  start.setUTCMinutes(fields.minute, 0, 0);
  let candidate = start.getTime();
  if (candidate <= after) candidate += HOUR_SECS * 1000;
  for (let i = 0; i < CRON_HORIZON_HOURS; i++, candidate += HOUR_SECS * 1000) {
    if (cronMatches(fields, new Date(candidate))) return candidate;
  }
  return null;
}

/** Checks a request's schedule: exactly one of `every` or `cron`, within bounds; 400 otherwise. */
export function parseSchedule(input: { every?: string | undefined; cron?: string | undefined }): Schedule {
  if ((input.every === undefined) === (input.cron === undefined)) {
    throw ApiError.invalid('Invalid request: schedule needs exactly one of every ("6h", "2d") or cron ("0 9 * * 1").');
  }
  if (input.every !== undefined) return { everySecs: parseEvery(input.every), cron: null };
  const cron = (input.cron as string).trim().replace(/\s+/g, " ");
  if (nextCronTime(parseCron(cron), Date.now()) === null) throw ApiError.invalid("Invalid request: schedule.cron names no time within a year.");
  return { everySecs: null, cron };
}

/** When a schedule next runs after `now` (epoch ms). */
export function nextRunAfter(schedule: Schedule, now: number): number {
  if (schedule.everySecs !== null) return now + schedule.everySecs * 1000;
  const next = nextCronTime(parseCron(schedule.cron), now);
  // A stored expression was checked when it was set; one that names no time any more waits a year.
  return next ?? now + CRON_HORIZON_HOURS * HOUR_SECS * 1000;
}
