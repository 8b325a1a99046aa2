// Section 4 of npm run bench: SSE fan-out, many subscribers on one job against the SearXNG
// fixture, next to a bare Durable Object of bench/floor streaming the same events.
import type { Fixture } from "../fixture.ts";
import type { Floor } from "../floor-server.ts";
import { log } from "../log.ts";
import { percentile, round } from "../report.ts";
import { type Ctx, follow } from "../service-client.ts";
import { FIXTURE_LATENCY_MS, FIXTURE_P99_MS } from "../settings.ts";

/** One job followed by `subscribers` clients, then the floor with the same events: every delivery's delay. */
async function sseRound(ctx: Ctx, fixture: Fixture, floor: Floor, subscribers: number, round: number) {
  fixture.freshPages();
  // The job's page reads wait until every subscriber is connected, so the connect storm (replays
  // to late subscribers) is told apart from the live fan-out, which the floor is compared with.
  await fetch(`${fixture.baseUrl}/control/hold?after=0`, { method: "POST" });
  const accepted = await ctx.api.call("/v1/research", { body: { question: `What do the reports say about harbors and canals? (${round})`, mode: "standard" } });
  const receipts = new Map<number, number>(); // event id -> subscribers that got it
  const deliveries: { emittedAt: number; delay: number }[] = []; // every (event, subscriber) delivery, replays included
  const emissions = new Map<number, { at: number; bytes: number }>();
  let opened = 0;
  let allOpen = () => {};
  const allOpened = new Promise<void>((resolve) => {
    allOpen = resolve;
  });
  const following = Promise.all(
    Array.from({ length: subscribers }, () =>
      follow(
        accepted.body.events_url,
        ctx.key,
        (event) => {
          receipts.set(event.id, (receipts.get(event.id) ?? 0) + 1);
          deliveries.push({ emittedAt: event.emittedAt, delay: event.receivedAt - event.emittedAt });
          emissions.set(event.id, { at: event.emittedAt, bytes: JSON.stringify(event.data).length });
        },
        () => ++opened === subscribers && allOpen(),
      ),
    ),
  );
  await allOpened;
  const liveFrom = Date.now();
  await fetch(`${fixture.baseUrl}/control/release`, { method: "POST" });
  await following;
  const liveEmissions = [...emissions.values()].filter((e) => e.at >= liveFrom);
  const floorDelays = await sseFloor(floor, subscribers, liveEmissions);
  // Every event the job emitted is counted, the ones a late subscriber got as a replay during the
  // connect storm too; an event some subscriber never received is a loss.
  const emitted = Math.max(...receipts.keys());
  let losses = 0;
  for (let id = 1; id <= emitted; id++) losses += subscribers - (receipts.get(id) ?? 0);
  return {
    emitted,
    liveEvents: liveEmissions.length,
    all: deliveries.map((d) => d.delay),
    live: deliveries.filter((d) => d.emittedAt >= liveFrom).map((d) => d.delay),
    floor: floorDelays,
    losses,
  };
}

/**
 * Section 4: rounds of (a job, its floor), interleaved, so a quiet or busy moment of the machine
 * falls on both; one round's tail is a handful of deliveries, so the tails are read pooled.
 */
export async function sseFanOut(ctx: Ctx, fixture: Fixture, floor: Floor) {
  const SUBSCRIBERS = Number(process.env.BENCH_SSE_SUBSCRIBERS ?? 200);
  const ROUNDS = Number(process.env.BENCH_SSE_ROUNDS ?? 3);
  fixture.latency(FIXTURE_LATENCY_MS, FIXTURE_P99_MS);
  const rounds: Awaited<ReturnType<typeof sseRound>>[] = [];
  for (let round = 1; round <= ROUNDS; round++) rounds.push(await sseRound(ctx, fixture, floor, SUBSCRIBERS, round));
  const pooled = (pick: (r: (typeof rounds)[number]) => number[]) => rounds.flatMap(pick);
  const [live, floorAll, all] = [pooled((r) => r.live), pooled((r) => r.floor), pooled((r) => r.all)];
  const losses = rounds.reduce((sum, r) => sum + r.losses, 0);
  log(`## 4. SSE fan-out (${SUBSCRIBERS} subscribers on one job, ${ROUNDS} rounds)`);
  log();
  log(
    `Each round: a standard job whose reads are held until all ${SUBSCRIBERS} subscribers are connected (so the connect storm, replays to late subscribers, is told apart from the live fan-out), then the floor: a bare Durable Object of bench/floor streaming the events the job emitted live, on the job's own schedule (each at its offset, of its size; events the job emitted in one turn, a wave's burst of sources, go as one chunk, as the job sends them), to as many subscribers. ` +
      `All deliveries of the jobs, replays included: ${all.length}, p50 **${percentile(all, 50)} ms**, p99 **${percentile(all, 99)} ms**; losses (an event a subscriber never received): **${losses}**.`,
  );
  log();
  log("| round | events (live) | job live p50 / p99 ms | floor p50 / p99 ms | p99 ratio |");
  log("|---|---|---|---|---|");
  rounds.forEach((r, i) => {
    const [jobP99, floorP99] = [percentile(r.live, 99), percentile(r.floor, 99)];
    log(
      `| ${i + 1} | ${r.emitted} (${r.liveEvents}) | ${percentile(r.live, 50)} / ${jobP99} | ${percentile(r.floor, 50)} / ${floorP99} | ${round(jobP99 / Math.max(1, floorP99), 2)}× |`,
    );
  });
  log();
  const [p50, p99, floorP99] = [percentile(live, 50), percentile(live, 99), percentile(floorAll, 99)];
  log("| stream, all rounds pooled | deliveries | p50 ms | p99 ms | p99 ratio to floor |");
  log("|---|---|---|---|---|");
  log(`| the job, live (service) | ${live.length} | ${p50} | ${p99} | ${round(p99 / Math.max(1, floorP99), 2)}× |`);
  log(`| floor: a bare Durable Object, the same events on the same schedule | ${floorAll.length} | ${percentile(floorAll, 50)} | ${floorP99} | 1 |`);
  log();
  log(`Target: the job's live p99 within 2× the floor's, 0 losses → **${round(p99 / Math.max(1, floorP99), 2)}×**, ${losses} losses.`);
  log();
}

/**
 * Section 4's floor: the same number of subscribers on a bare Durable Object of bench/floor, which
 * emits the job's live events on the job's own schedule (each at its offset from the first, of
 * its size: the bursts of a wave's sources included); every delivery's delay.
 */
async function sseFloor(floor: Floor, subscribers: number, emissions: { at: number; bytes: number }[]): Promise<number[]> {
  const room = crypto.randomUUID();
  const sorted = [...emissions].sort((a, b) => a.at - b.at);
  const schedule = sorted.map((e) => ({ at: e.at - sorted[0]!.at, bytes: e.bytes }));
  const delays: number[] = [];
  const following = Array.from({ length: subscribers }, () =>
    follow(`${floor.url}sse?room=${room}`, "", (event) => delays.push(event.receivedAt - event.emittedAt)),
  );
  for (;;) {
    const { subscribers: open } = (await (await fetch(`${floor.url}sse/count?room=${room}`)).json()) as { subscribers: number };
    if (open >= subscribers) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await fetch(`${floor.url}sse/emit?room=${room}`, { method: "POST", body: JSON.stringify({ schedule }) });
  await Promise.all(following);
  return delays;
}
