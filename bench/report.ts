// What every benchmark shares: its statistics, the machine's load, and one way to keep results
// (every run its own file in bench/results/, by date, time and commit; "-dirty" when src/ or
// bench/ had uncommitted changes, so a figure always names the code it measured).
import { execSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, openLocalD1 } from "../scripts/lib/local-d1.mjs";

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const median = (values: number[]) => percentile(values, 50);

/** `n` rounded to `digits` decimals, as a number. */
export const round = (n: number, digits = 1) => Number(n.toFixed(digits));

/** "Machine load (1/5/15 min): a / b / c." */
export function machineLoad(): string {
  return `Machine load (1/5/15 min): ${loadavg()
    .map((n) => n.toFixed(2))
    .join(" / ")}.`;
}

/** The commit the run measured, "-dirty" when src/ or bench/ differ from it. */
export function measuredCommit(): string {
  const commit = execSync("git rev-parse --short HEAD").toString().trim();
  return execSync("git status --porcelain -- src bench ':!bench/results'").toString().trim() ? `${commit}-dirty` : commit;
}

/** Writes bench/results/<date>-<HHMM>-<commit>[-suffix].md and returns its path. */
export function writeResults(lines: string[], suffix?: string): string {
  const now = new Date().toISOString();
  const dir = join(dirname(fileURLToPath(import.meta.url)), "results");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${now.slice(0, 10)}-${now.slice(11, 16).replace(":", "")}-${measuredCommit()}${suffix ? `-${suffix}` : ""}.md`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** Resident memory (MB) of the workerd processes of a process group (Linux /proc), the largest first. */
export function workerdMemoryMb(processGroup: number): number[] {
  const sizes: number[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // after "pid (comm) "
      if (Number(fields[2]) !== processGroup || !stat.includes("(workerd)")) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      if (rss) sizes.push(Math.round(Number(rss) / 1024));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return sizes.sort((a, b) => b - a);
}

/** CPU seconds (user + system) each workerd process of the group has used so far, by pid. */
export function workerdCpuSecs(processGroup: number): Map<number, number> {
  const ticksPerSec = 100; // USER_HZ on Linux
  const used = new Map<number, number>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" "); // field 3 onwards
      if (Number(fields[2]) !== processGroup || !stat.includes("(workerd)")) continue;
      used.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / ticksPerSec); // utime, stime
    } catch {
      /* the process ended meanwhile */
    }
  }
  return used;
}

/** A fresh local D1 (the one `npm start` uses, through wrangler's proxy) with the migrations applied; `close` removes it. */
export async function scratchD1(name: string): Promise<{ db: D1Database; close: () => Promise<void> }> {
  const stateDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const { db, dispose } = await openLocalD1(stateDir);
  await applyMigrations(db);
  return {
    db,
    close: async () => {
      await dispose();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
