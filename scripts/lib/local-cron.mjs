// `wrangler dev` never fires cron triggers by itself; it only exposes a trigger endpoint. This
// plays the platform's scheduler for `npm start`: at each minute boundary it fires every cron of
// wrangler.toml's [triggers] that matches the time, through /cdn-cgi/local/scheduled.
import { readFileSync } from "node:fs";

/** The cron expressions of wrangler.toml's [triggers] section. */
export function cronsOf(wranglerTomlPath) {
  const toml = readFileSync(wranglerTomlPath, "utf8");
  const section = /^\[triggers\][^[]*?crons\s*=\s*\[([^\]]*)\]/m.exec(toml);
  return section ? [...section[1].matchAll(/"([^"]+)"/g)].map((match) => match[1]) : [];
}

const FIELDS = [
  { name: "minute", min: 0, max: 59, of: (date) => date.getUTCMinutes() },
  { name: "hour", min: 0, max: 23, of: (date) => date.getUTCHours() },
  { name: "day of month", min: 1, max: 31, of: (date) => date.getUTCDate() },
  { name: "month", min: 1, max: 12, of: (date) => date.getUTCMonth() + 1 },
  { name: "day of week", min: 0, max: 7, of: (date) => date.getUTCDay() },
];

/** Whether one field (`*`, `5`, `1-5`, `*\/15`, `10-40/10`, lists of these) admits `value`. */
function fieldMatches(spec, { min, max, name }, value) {
  return spec.split(",").some((part) => {
    const [range, stepText] = part.split("/");
    const step = stepText === undefined ? 1 : Number(stepText);
    const [low, high] = range === "*" ? [min, max] : range.includes("-") ? range.split("-").map(Number) : [Number(range), stepText ? max : Number(range)];
    if (![step, low, high].every(Number.isInteger) || step < 1) throw new Error(`unsupported cron ${name} field "${spec}"`);
    // Sunday is both 0 and 7.
    const candidates = name === "day of week" && value === 0 ? [0, 7] : [value];
    return candidates.some((v) => v >= low && v <= high && (v - low) % step === 0);
  });
}

/** Whether a five-field cron expression (UTC, as Cloudflare reads it) fires at `date`'s minute. */
export function cronMatches(expression, date) {
  const specs = expression.trim().split(/\s+/);
  if (specs.length !== 5) throw new Error(`unsupported cron "${expression}": five fields expected`);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = specs.map((spec, i) => fieldMatches(spec, FIELDS[i], FIELDS[i].of(date)));
  // As in Vixie cron: when both day fields are restricted, either may match.
  const dayMatches = specs[2] !== "*" && specs[4] !== "*" ? dayOfMonth || dayOfWeek : dayOfMonth && dayOfWeek;
  return minute && hour && month && dayMatches;
}

/**
 * Fires the matching crons at every minute boundary until stopped. `tickMs` (tests only) instead
 * fires every cron each `tickMs`, as a fast clock. Returns a function that stops it.
 */
export function startLocalCron({ baseUrl, crons, tickMs, log }) {
  if (crons.length === 0) return () => {};
  let timer;
  const fire = async (now) => {
    for (const cron of crons) {
      if (!tickMs && !cronMatches(cron, now)) continue;
      try {
        const response = await fetch(`${baseUrl}/cdn-cgi/local/scheduled?cron=${encodeURIComponent(cron)}`);
        await response.body?.cancel();
        if (!response.ok) log(`cron "${cron}": the trigger answered ${response.status}`);
      } catch {
        // The server is still starting or already stopping: the next tick tries again.
      }
    }
  };
  const schedule = () => {
    const delay = tickMs ?? 60_000 - (Date.now() % 60_000) + 50;
    timer = setTimeout(() => {
      void fire(new Date()).finally(schedule);
    }, delay);
    timer.unref();
  };
  schedule();
  log(`local cron: ${crons.join(", ")} (UTC), fired ${tickMs ? `every ${tickMs} ms` : "on schedule"}`);
  return () => clearTimeout(timer);
}
