// The platform's floor: the Worker of bench/floor, started the way the service is (`wrangler dev`).
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HITS_PER_SEARCH } from "../src/research/engine/gather/waves.ts";
import { freePort } from "../test/e2e/server.ts";
import { percentile } from "./report.ts";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * bench/floor's wrangler.toml behind the service's own static-assets set-up: its `[assets]` block
 * and compatibility flags, copied from the service's wrangler.toml (the dashboard's place taken by
 * bench/floor/public). Written into `dir`; answers the config's path.
 */
function floorWithAssetsConfig(dir: string): string {
  const service = readFileSync(join(here, "..", "wrangler.toml"), "utf8");
  const assets = /^\[assets\]\n(?:[^[\n].*\n|\n)*/m.exec(service)?.[0];
  const flags = /^compatibility_flags = .*$/m.exec(service)?.[0];
  if (!assets || !flags) throw new Error("the service's wrangler.toml has no [assets] block or compatibility_flags");
  const floor = readFileSync(join(here, "floor", "wrangler.toml"), "utf8")
    .replace(/^main = .*$/m, `main = ${JSON.stringify(join(here, "floor", "index.ts"))}`)
    .replace(/^name = .*$/m, 'name = "bench-floor-assets"')
    .replace(/^compatibility_date = .*$/m, (line) => `${line}\n${flags}`)
    .replaceAll('queue = "floor-tasks"', 'queue = "floor-assets-tasks"');
  const path = join(dir, "wrangler.toml");
  writeFileSync(path, `${floor}\n${assets.replace(/^directory = .*$/m, `directory = ${JSON.stringify(join(here, "floor", "public"))}`)}`);
  return path;
}

/**
 * The floor Worker of bench/floor, served by `wrangler dev` like the service; `stop` ends it.
 * `withAssets`: behind the service's static-assets routing (section 1's row 0′). `d1From`: a
 * service's state directory, whose local D1 (the corpus) the floor gets a copy of.
 */
export async function startFloor({ withAssets = false, d1From }: { withAssets?: boolean; d1From?: string } = {}) {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), "bench-floor-"));
  if (d1From) cpSync(join(d1From, "v3", "d1"), join(stateDir, "v3", "d1"), { recursive: true });
  const config = withAssets ? floorWithAssetsConfig(stateDir) : join(here, "floor", "wrangler.toml");
  const child = spawn(
    join(here, "..", "node_modules", ".bin", "wrangler"),
    ["dev", "--config", config, "--ip", "127.0.0.1", "--port", String(port), "--persist-to", stateDir],
    { detached: true, stdio: "ignore", env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" } },
  );
  const stop = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* already gone */
    }
    rmSync(stateDir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}/`;
  /** The hello-world answer: behind the assets routing, a path the Worker answers first (as /v1 is). */
  const hello = withAssets ? `${url}v1/hello` : url;
  const waves = new Map<string, number>();
  /**
   * The floor of one fan-out of `tasks` fetches of `taskUrl` ("" = tasks that do nothing): the
   * median of 3, remembered per (tasks, url). Zero tasks cost nothing (the job sends no batch).
   */
  const wave = async (tasks: number, taskUrl: string) => {
    if (tasks === 0) return 0;
    const key = `${tasks} ${taskUrl}`;
    if (!waves.has(key)) {
      const runs: number[] = [];
      for (let i = 0; i < 3; i++)
        runs.push(((await (await fetch(`${url}wave?tasks=${tasks}&url=${encodeURIComponent(taskUrl)}`)).json()) as { ms: number }).ms);
      waves.set(key, percentile(runs, 50));
    }
    return waves.get(key)!;
  };
  /** The floor of one corpus wave: its searches and reads run by a bare object on the same D1, median of 3. */
  const corpusWave = async (searches: string[], reads: string[]) => {
    if (searches.length + reads.length === 0) return 0;
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${url}corpus-wave`, { method: "POST", body: JSON.stringify({ searches, reads, hitsPerSearch: HITS_PER_SEARCH }) });
      runs.push(((await response.json()) as { ms: number }).ms);
    }
    return percentile(runs, 50);
  };
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(hello)).ok) {
        // The first fan-out starts the object and the consumer: not a floor. (Behind the assets
        // routing only `hello` is answered by the Worker: that floor is for section 1 alone.)
        if (!withAssets) await wave(1, "");
        waves.clear();
        return { url, hello, wave, corpusWave, stop };
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error("the floor Worker did not start");
}

export type Floor = Awaited<ReturnType<typeof startFloor>>;
