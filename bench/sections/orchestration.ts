// Section 2 of npm run bench: orchestration, jobs one at a time against the critical path and the
// platform's floor (2a the corpus path, 2a′ the corpus path through the queue, 2b the web path).
import type { Fixture } from "../fixture.ts";
import type { Floor } from "../floor-server.ts";
import { log } from "../log.ts";
import { percentile, round } from "../report.ts";
import { type Ctx, follow, type SseEvent } from "../service-client.ts";
import { FIXTURE_LATENCY_MS } from "../settings.ts";

/** A job's searches and reads per wave, from its progress events (their counts are cumulative). */
function tasksPerWave(events: SseEvent[]): { searches: number; reads: number }[] {
  const at = (stage: string, wave: number) => events.find((e) => e.event === "progress" && e.data.stage === stage && e.data.wave === wave)?.data;
  const waves: { searches: number; reads: number }[] = [];
  for (let wave = 1; at("searching", wave); wave++) {
    const before = { searches: at("searching", wave - 1)?.searches ?? 0, pages: at("reading", wave - 1)?.pages ?? 0 };
    waves.push({ searches: at("searching", wave).searches - before.searches, reads: (at("reading", wave)?.pages ?? before.pages) - before.pages });
  }
  return waves;
}

/** The urls a job read in each wave (its source events, under the wave of the progress before them). */
function readsPerWave(events: SseEvent[]): Map<number, string[]> {
  const reads = new Map<number, string[]>();
  let wave = 0;
  for (const event of events) {
    if (event.event === "progress") wave = event.data.wave;
    else if (event.event === "source") reads.set(wave, [...(reads.get(wave) ?? []), event.data.url]);
  }
  return reads;
}

/**
 * Runs standard and pro jobs one at a time and compares each with two bounds: the critical path
 * the issue names (waves × (search latency + read latency) + synthesis; 0 latency on the corpus
 * path) and the platform's floor for the same fan-outs, plus synthesis: on the web path each
 * wave's searches and reads sent through a queue by a Durable Object of bench/floor and answered
 * back; on the corpus path the wave's D1 searches and reads run by such an object (`corpusFloor`,
 * on a copy of the service's D1), through the queue as well for 2a′. The distance to the floor
 * is the overhead that is ours, the engine's own work included.
 */
export async function orchestration(path: "web" | "corpus" | "corpus-queue", ctx: Ctx, floor: Floor, fixture?: Fixture, corpusFloor?: Floor) {
  const latency = fixture ? FIXTURE_LATENCY_MS : 0;
  fixture?.latency(latency, latency); // constant: the critical path is known
  const taskUrl = fixture ? `${fixture.baseUrl}/page/1` : "";
  const titles = {
    web: `## 2b. Orchestration on the web path (SearXNG fixture, constant latency ${latency} ms per search and per page)`,
    corpus: "## 2a. Orchestration on the corpus path (the default: FTS5 search and reads in D1, demo corpus; searches and reads run in the job)",
    "corpus-queue":
      "## 2a′. The same corpus jobs with every search and read sent through the research-tasks queue (TASK_FAN_OUT=queue): what the queue hop would cost",
  };
  const corpusQueries =
    "a Durable Object of bench/floor running the wave's searches (each asking the question) and reads (the pages the job read in that wave) with the service's corpus providers, the same SQL on a copy of the service's D1, all at once and with no engine";
  const floorWords = {
    web: "a Durable Object of bench/floor sending that many fetches of a fixture page through a queue and getting the answers back",
    corpus: corpusQueries,
    "corpus-queue": `${corpusQueries}, plus as many empty tasks sent through a queue by a Durable Object of bench/floor and answered back`,
  };
  log(titles[path]);
  log();
  log(
    "The run is measured from submit to the `done` progress event; settlement (ledger release, final row, webhook queue) is reported apart, from `done` to the result. " +
      "Critical path = waves × (search latency + read latency) + synthesis (`synthesizing` to `done`). " +
      `Floor = synthesis + for each wave the floor of its fan-outs, on the same machine in the same run: ${floorWords[path]}.`,
  );
  log();
  log(
    "| mode | run | waves | searches | pages | run ms | synthesis ms | critical path ms | ratio | floor ms | ratio to floor | ours per wave ms | settlement ms |",
  );
  log("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const summary: Record<string, { ratio: number[]; floorRatio: number[]; perWave: number[]; settlement: number[] }> = {};
  for (const mode of ["standard", "pro"]) {
    for (let run = 1; run <= 3; run++) {
      fixture?.freshPages();
      const question = fixture
        ? `What changed in tariff and railroad policy? (run ${mode} ${run})`
        : `How did presidents describe tariffs and the railroads? (run ${mode} ${run})`;
      const submitted = Date.now();
      const accepted = await ctx.api.call("/v1/research", { body: { question, mode, async: true } });
      if (accepted.status !== 202) throw new Error(`submit failed: ${JSON.stringify(accepted.body)}`);
      const events = await follow(accepted.body.events_url, ctx.key);
      const _result = events.at(-1)!.data;
      const resultAt = events.at(-1)!.receivedAt;
      const stageAt = (stage: string) => events.find((e) => e.event === "progress" && e.data.stage === stage)?.receivedAt;
      const doneAt = stageAt("done") ?? resultAt;
      const synthesis = doneAt - (stageAt("synthesizing") ?? doneAt);
      const progress = [...events].reverse().find((e) => e.event === "progress")?.data ?? {};
      const runMs = doneAt - submitted;
      const perWave = tasksPerWave(events);
      const waves = perWave.length;
      const criticalPath = waves * 2 * latency + synthesis;
      let floorMs = synthesis;
      const urls = readsPerWave(events);
      for (const [index, wave] of perWave.entries()) {
        // On the corpus path the searches and reads are D1 queries: their floor is those queries
        // run by a bare object. Each search asks the question itself (the job's own queries are
        // not in its events; they are parts of the question, and a search here costs about the
        // same, 8-12 ms, whichever of its words it asks). Through the queue, the queue's floor too.
        if (corpusFloor) floorMs += await corpusFloor.corpusWave(Array(wave.searches).fill(question), urls.get(index + 1) ?? []);
        if (path !== "corpus") floorMs += (await floor.wave(wave.searches, taskUrl)) + (await floor.wave(wave.reads, taskUrl));
      }
      const ours = (runMs - floorMs) / Math.max(1, waves);
      const entry = (summary[mode] ??= { ratio: [], floorRatio: [], perWave: [], settlement: [] });
      entry.ratio.push(runMs / criticalPath);
      entry.floorRatio.push(runMs / floorMs);
      entry.perWave.push(ours);
      entry.settlement.push(resultAt - doneAt);
      log(
        `| ${mode} | ${run} | ${waves} | ${progress.searches} | ${progress.pages} | ${runMs} | ${synthesis} | ${criticalPath} | ${criticalPath > 0 ? `${round(runMs / criticalPath, 2)}×` : "–"} | ` +
          `${floorMs} | ${round(runMs / floorMs, 2)}× | ${round(ours)} | ${resultAt - doneAt} |`,
      );
    }
  }
  log();
  for (const [mode, values] of Object.entries(summary)) {
    log(
      `- ${mode}: median **${Number.isFinite(percentile(values.ratio, 50)) ? `${round(percentile(values.ratio, 50), 2)}×` : "–"}** the critical path (target ≤ 1.15×, web path), ` +
        `**${round(percentile(values.floorRatio, 50), 2)}×** the platform floor, ours **${round(percentile(values.perWave, 50))} ms** a wave, settlement ${round(percentile(values.settlement, 50))} ms`,
    );
  }
  log();
}
