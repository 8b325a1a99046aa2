import { DurableObject } from "cloudflare:workers";
import { createDb } from "../../db/client";
import { isTerminal, type JobStatus } from "../../db/schema/jobs";
import type { Env } from "../../env";
import { SECOND } from "../../lib/time";
import { settleReservation } from "../../services/billing/reservations";
import { loadConfig } from "../../env";
import {
  createChatModel,
  NoEvidenceError,
  type PriorEvidence,
  type PriorPage,
  ResearchCancelledError,
  runResearch,
  type ResearchProgress,
  type SourceDto,
  TypedOutputError,
} from "../engine";
import { jobObject } from "./job-object";
import type { JobEventData, JobEventName } from "../event-shapes";
import { type JobEventBatch, JobEventStream } from "./job-events";
import { taskQueueFor } from "../tasks/task-queues";
import { taskRunnerFor } from "../tasks/task-runner";
import { finalResult, type JobRecord, type JobSpec, liveResult, type Outcome, plainSources, type ResearchResult } from "./job-state";
import { markJobRunning, writeFinalJob } from "./job-store";
import { QueuedTaskRunner, type TaskAnswer, type TaskOutcome } from "../tasks/queued-fan-out";
import { enqueueWebhook, eventEnvelope } from "../../webhooks/delivery";
import { type LifecycleEvent, WEBHOOK_EVENT } from "../../webhooks/headers";

/** After the hard deadline, how long a run may still take to wind down before it is failed. */
const DEADLINE_GRACE_MS = 15 * SECOND;
/**
 * While a run is in progress its alarm stays armed this soon. The runtime never starts an alarm
 * while another alarm() of the object is running, so the alarm fires only once the run's own
 * alarm() is over: when the run ended in this instance (then it is deleted, see alarm()), or when
 * the runtime died mid-run, and then it fires at the restart and resumes the job from storage.
 * Not 0: a run that crashes its runtime again is restarted at most every few seconds.
 */
export const RESUME_AFTER_MS = 2 * SECOND;
/** `research.progress` deliveries: at most one per wave, and at most one in this long. */
export const PROGRESS_HOOK_INTERVAL_MS = 10 * SECOND;
/** Retry delay of settlement when D1 was unreachable. */
const SETTLE_RETRY_MS = 5 * SECOND;

/**
 * Lets the runtime pump the event just written to every subscriber before the engine's next
 * stretch of CPU work (ranking, synthesis) holds this object's thread.
 */
const yieldToSubscribers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The terminal delivery a job sends, if any: without `webhook_events`, `research.completed` for
 * any terminal status (as before lifecycle events); with it, the status's own event, if listed.
 */
function terminalEvent(spec: JobRecord["spec"], status: JobStatus): LifecycleEvent | null {
  if (!spec.notifiesWebhook) return null;
  if (!spec.webhookEvents) return WEBHOOK_EVENT;
  const event = status === "succeeded" ? "research.completed" : status === "failed" ? "research.failed" : "research.cancelled";
  return spec.webhookEvents.includes(event) ? event : null;
}

class DeadlineExceeded extends Error {
  constructor() {
    super("The job did not finish before its wall-clock deadline.");
  }
}

/**
 * One research job. It persists its request, budget and reservation before acting, runs the
 * engine inside its alarm (so the runtime retries it and a restart resumes it), runs each wave's
 * searches and reads in the job when they are local (the corpus, collections) and through the
 * research-tasks queue when they go to the web (task-runner.ts); either way each answer is kept in
 * its storage, so a resumed run replays finished tasks instead of redoing and re-charging them and
 * a follow-up starts from them. It settles the credits exactly once, writes
 * the final row to D1, and serves its progress over SSE to any number of subscribers.
 *
 * Every state change is persisted before it is announced.
 */
export class ResearchJob extends DurableObject<Env> {
  private record: JobRecord | null = null;
  private activeRun: Promise<void> | null = null;
  private abortRun: AbortController | null = null;
  private terminalWaiters = new Set<() => void>();
  private events!: JobEventStream;
  /** The settlement in progress: a terminal result is not shown before its credits are settled. */
  private settling: Promise<void> | null = null;
  /** The D1 row's "running" mark, written while the engine starts (settlement waits for it). */
  private runningMarked: Promise<void> | null = null;
  /** Lifecycle deliveries being written to the outbox (the run does not wait for them; settlement does). */
  private hooksEnqueued: Promise<void> = Promise.resolve();
  readonly tasks: QueuedTaskRunner;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.tasks = new QueuedTaskRunner(ctx);
    ctx.blockConcurrencyWhile(async () => {
      this.events = new JobEventStream(ctx.storage.sql, Number(env.SSE_KEEPALIVE_MS) || undefined);
      this.tasks.createTables();
      // A follow-up's prior evidence (issue 45): one row per page or query, written once before its first run.
      ctx.storage.sql.exec("CREATE TABLE IF NOT EXISTS prior (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, value TEXT NOT NULL)");
      this.record = (await ctx.storage.get<JobRecord>("job")) ?? null;
    });
  }

  // ---- RPC surface -------------------------------------------------------------------------

  /** Accepts the job (idempotent: a second start of the same job changes nothing). */
  async start(spec: JobSpec): Promise<void> {
    if (this.record) return;
    this.record = { spec, status: "pending", startedAt: null, cancelRequested: false, progress: null, sources: [], result: null, settled: false };
    await this.persist();
    this.emit("status", { status: "pending" });
    await this.ctx.storage.setAlarm(Date.now());
  }

  /** Has this object been handed its job (a submit's replays wait for it before answering)? */
  async accepted(): Promise<boolean> {
    return this.record !== null;
  }

  /** The job as a ResearchResult (live while running). */
  async result(): Promise<ResearchResult | null> {
    this.resumeIfOrphaned();
    await this.settling;
    return this.record ? liveResult(this.record) : null;
  }

  /** Resolves with the result once terminal, or with the live result after `timeoutMs`. */
  async waitForResult(timeoutMs: number): Promise<ResearchResult | null> {
    if (!this.record) return null;
    this.resumeIfOrphaned();
    if (!isTerminal(this.record.status)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, timeoutMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.terminalWaiters.add(done);
      });
    }
    await this.settling;
    return liveResult(this.record);
  }

  /**
   * Cancels a pending or running job: charged for the work already spent, the rest released.
   * A terminal job is returned unchanged, and `endedBefore` says so: the caller must be told
   * that its cancel arrived too late (a corpus job ends in well under a second).
   */
  async cancel(): Promise<{ result: ResearchResult; endedBefore: boolean } | null> {
    const record = this.record;
    if (!record) return null;
    if (isTerminal(record.status)) {
      await this.settling;
      return { result: liveResult(record), endedBefore: true };
    }
    record.cancelRequested = true;
    await this.persist();
    if (this.activeRun) {
      this.abortRun?.abort(new Error("cancelled"));
      await this.activeRun;
    } else {
      await this.finish({ status: "cancelled", costUsd: record.progress?.cost_usd ?? 0, waves: record.progress?.wave ?? 0 });
    }
    return { result: liveResult(this.record!), endedBefore: false };
  }

  /** A fan-out task finished. */
  async taskDone(key: string, outcome: TaskOutcome): Promise<void> {
    this.tasks.complete(key, outcome);
    this.resumeIfOrphaned();
  }

  /** The answers of a queue batch's tasks for this job, in one call (what the consumer sends). */
  async tasksDone(answers: TaskAnswer[]): Promise<void> {
    for (const { key, outcome } of answers) await this.taskDone(key, outcome);
  }

  /** The cron sweep: settle a job stuck past its deadline, or nudge an orphaned one to resume. */
  async sweep(): Promise<"settled" | "resumed" | "ok" | "missing"> {
    const record = this.record;
    if (!record) return "missing";
    if (isTerminal(record.status)) {
      if (!record.settled) await this.settle();
      return "ok";
    }
    if (this.activeRun) return "ok";
    if (Date.now() >= record.spec.deadlineAt + DEADLINE_GRACE_MS) {
      await this.finish({ status: "failed", error: new DeadlineExceeded().message, costUsd: 0, waves: record.progress?.wave ?? 0 });
      return "settled";
    }
    await this.ctx.storage.setAlarm(Date.now());
    return "resumed";
  }

  /** SSE: GET /events, replaying everything after Last-Event-ID. */
  override async fetch(request: Request): Promise<Response> {
    const record = this.record;
    if (!record) return new Response("unknown job", { status: 404 });
    this.resumeIfOrphaned();
    // A job between terminal and settled has not emitted its result yet: wait for it.
    await this.settling;
    const url = new URL(request.url);
    const lastEventId = Number(request.headers.get("Last-Event-ID") ?? url.searchParams.get("last_event_id") ?? 0) || 0;
    return this.events.subscribe(lastEventId, isTerminal(record.status), request.signal);
  }

  /**
   * The events after `lastEventId` as objects, for a follower inside the worker (followJob): those
   * logged, else the next ones within `waitMs`. Null: this object never received its job.
   */
  async eventsAfter(lastEventId: number, waitMs: number): Promise<JobEventBatch | null> {
    if (!this.record) return null;
    this.resumeIfOrphaned();
    // A job between terminal and settled has not emitted its result yet: wait for it.
    await this.settling;
    if (!this.eventsComplete()) await this.events.waitForEventsAfter(lastEventId, waitMs);
    // Read together, in one turn: an event emitted later is in the next batch, never hidden behind `ended`.
    return { events: this.events.eventsAfter(lastEventId), ended: this.eventsComplete() };
  }

  // ---- Running -----------------------------------------------------------------------------

  /**
   * Runs (or resumes) the job; past its deadline, fails and refunds it. Never called while this
   * object's alarm() runs (the runtime starts one alarm at a time), so a run in progress here means
   * the alarm was fired by hand; it only enforces the deadline then.
   */
  override async alarm(): Promise<void> {
    const record = this.record;
    if (!record) return;
    if (isTerminal(record.status)) {
      if (!record.settled) await this.settle();
      return;
    }
    if (this.activeRun) {
      if (Date.now() >= record.spec.deadlineAt) this.abortRun?.abort(new DeadlineExceeded());
      return;
    }
    if (record.cancelRequested) {
      await this.finish({ status: "cancelled", costUsd: record.progress?.cost_usd ?? 0, waves: record.progress?.wave ?? 0 });
      return;
    }
    if (Date.now() >= record.spec.deadlineAt + DEADLINE_GRACE_MS) {
      await this.finish({ status: "failed", error: new DeadlineExceeded().message, costUsd: 0, waves: record.progress?.wave ?? 0 });
      return;
    }
    // Armed first: if the runtime dies mid-run, this alarm resumes the job at the restart
    // (RESUME_AFTER_MS); past the deadline the branches above fail and refund it instead.
    await this.ctx.storage.setAlarm(Date.now() + RESUME_AFTER_MS);
    this.activeRun = this.run(record);
    try {
      await this.activeRun;
    } finally {
      this.activeRun = null;
    }
    // The run ended here: nothing left to resume. A settlement that must be retried keeps its alarm.
    if (this.record?.settled) await this.ctx.storage.deleteAlarm();
  }

  private async run(record: JobRecord): Promise<void> {
    const abort = new AbortController();
    this.abortRun = abort;
    const deadlineTimer = setTimeout(() => abort.abort(new DeadlineExceeded()), Math.max(0, record.spec.deadlineAt - Date.now()));
    try {
      if (record.status === "pending") {
        record.status = "running";
        record.startedAt = Date.now();
        await this.persist();
        this.emit("status", { status: "running" });
        this.notify("research.started", `${record.spec.id}:research.started`, { status: "running" });
        // Only lists read the mark, and it never overwrites a terminal row: the first wave need not wait for it.
        this.runningMarked = markJobRunning(createDb(this.env.DB), record.spec.id, new Date(record.startedAt).toISOString()).catch((error: unknown) =>
          console.error(`marking job ${record.spec.id} running failed`, error),
        );
      }
      // The job's collections travel with its task messages: the consumer searches and reads there.
      this.tasks.bind(record.spec.id, taskQueueFor(this.env, record.spec.id), record.spec.scope);
      const prior = await this.priorEvidence(record);
      const output = await runResearch(
        record.spec.input,
        { taskRunner: taskRunnerFor(this.env, this.tasks, record.spec.scope), llm: createChatModel(this.env) },
        {
          signal: abort.signal,
          onProgress: (progress) => this.onProgress(progress),
          onSource: (source) => this.onSource(source),
        },
        { prior },
      );
      // The work is done: a cancel that arrived after the engine's last check is too late, and the
      // job succeeds at its price (the cancel's answer says so). Settling it as cancelled sold the
      // complete brief at the metered price (issue 39).
      await this.finish({ status: "succeeded", output });
    } catch (error) {
      await this.finish(this.outcomeOf(error, record));
    } finally {
      clearTimeout(deadlineTimer);
      this.abortRun = null;
    }
  }

  // ---- Follow-ups (issue 45) ------------------------------------------------------------------

  /**
   * What a follow-up of this job starts from: every page it read (those its own thread handed it,
   * then the ones it read, in order) with the text as read, and every query searched. Null unless
   * the job succeeded. Read from this object's storage: the fan-out's answers and its prior rows.
   */
  async followUpEvidence(): Promise<PriorEvidence | null> {
    const record = this.record;
    if (record?.status !== "succeeded") return null;
    const { pages, searched } = this.storedPrior();
    const domains = new Map(record.sources.map((source) => [source.url, source.domain]));
    const seen = new Set(pages.map((page) => page.url));
    const rows = this.ctx.storage.sql
      .exec<{ key: string; outcome: string }>("SELECT key, outcome FROM tasks WHERE outcome IS NOT NULL ORDER BY dispatched_at, rowid")
      .toArray();
    for (const row of rows) {
      const outcome = JSON.parse(row.outcome) as { ok: boolean; value?: unknown };
      if (row.key.startsWith("search:")) {
        const query = (JSON.parse(row.key.slice("search:".length)) as { query?: unknown }).query;
        if (typeof query === "string" && !searched.includes(query)) searched.push(query);
        continue;
      }
      if (!row.key.startsWith("read:") || !outcome.ok) continue;
      const page = outcome.value as { url: string; title: string; text: string; published_at?: string; author?: string } | null;
      const url = JSON.parse(row.key.slice("read:".length)) as string;
      if (!page?.text?.trim() || seen.has(url)) continue;
      seen.add(url);
      pages.push({
        url,
        title: page.title,
        text: page.text,
        domain: domains.get(url) ?? "",
        ...(page.published_at ? { published_at: page.published_at } : {}),
        ...(page.author ? { author: page.author } : {}),
        job_id: record.spec.id,
      });
    }
    return { pages, searched };
  }

  /** The prior evidence this object keeps (a follow-up's, loaded once; none otherwise). */
  private storedPrior(): PriorEvidence {
    const pages: PriorPage[] = [];
    const searched: string[] = [];
    for (const row of this.ctx.storage.sql.exec<{ kind: string; value: string }>("SELECT kind, value FROM prior ORDER BY seq")) {
      if (row.kind === "page") pages.push(JSON.parse(row.value) as PriorPage);
      else searched.push(row.value);
    }
    return { pages, searched };
  }

  /**
   * A follow-up's prior evidence: asked of the previous job's object at its first run and kept here
   * (a resumed run, and any follow-up of this job, read it from here). Null for a job that follows none.
   */
  private async priorEvidence(record: JobRecord): Promise<PriorEvidence | null> {
    const previous = record.spec.previousJobId;
    if (!previous) return null;
    if (record.priorPages) return this.storedPrior();
    const prior = await jobObject(this.env, previous).followUpEvidence();
    // Checked at submit (a succeeded job of the same account); an object that lost it is an internal failure, refunded.
    if (!prior) throw new Error(`the evidence of job ${previous} is not available`);
    this.ctx.storage.transactionSync(() => {
      this.ctx.storage.sql.exec("DELETE FROM prior");
      for (const page of prior.pages) this.ctx.storage.sql.exec("INSERT INTO prior (kind, value) VALUES ('page', ?)", JSON.stringify(page));
      for (const query of prior.searched) this.ctx.storage.sql.exec("INSERT INTO prior (kind, value) VALUES ('query', ?)", query);
    });
    record.priorPages = Object.fromEntries(prior.pages.map((page) => [page.url, page.job_id]));
    await this.persist();
    return prior;
  }

  /** Maps how a run ended to a terminal outcome; anything unexpected is a failed, refunded job. */
  private outcomeOf(error: unknown, record: JobRecord): Outcome {
    const waves = record.progress?.wave ?? 0;
    const spent = record.progress?.cost_usd ?? 0;
    if (error instanceof ResearchCancelledError) {
      if (record.cancelRequested) return { status: "cancelled", costUsd: error.costUsd, waves: error.waves, found: error.found };
      return { status: "failed", error: new DeadlineExceeded().message, costUsd: error.costUsd, waves: error.waves };
    }
    // The typed output failed (no source supports a required field, or it does not conform): refunded,
    // so the result carries the error naming the fields and none of the research (issue 39).
    if (error instanceof TypedOutputError) return { status: "failed", error: error.message, costUsd: error.costUsd, waves };
    if (error instanceof NoEvidenceError) return { status: "failed", error: error.message, costUsd: error.costUsd, waves };
    console.error(`research job ${record.spec.id} failed unexpectedly`, error);
    return { status: "failed", error: "Internal error while researching; the credits were refunded.", costUsd: spent, waves };
  }

  private async onProgress(progress: ResearchProgress): Promise<void> {
    if (!this.record || isTerminal(this.record.status)) return;
    this.record.progress = progress;
    this.notifyProgress(this.record, progress);
    await this.persist();
    this.emit("progress", progress);
    // Sources arrive in one burst per wave, followed by a stage change: one yield flushes them all.
    if (this.events.hasSubscribers) await yieldToSubscribers();
  }

  private async onSource(source: SourceDto): Promise<void> {
    if (!this.record || isTerminal(this.record.status)) return;
    // A resumed follow-up seeds its prior pages again: each is a source of the job once.
    if (this.record.sources.some((known) => known.url === source.url)) return;
    const [plain] = plainSources([source]);
    this.record.sources.push(plain!);
    await this.persist();
    this.emit("source", plain!);
  }

  // ---- Settlement --------------------------------------------------------------------------

  /** Makes the job terminal exactly once, then settles it. */
  private async finish(outcome: Outcome): Promise<void> {
    const record = this.record;
    if (!record || isTerminal(record.status)) return;
    const result = finalResult(record, outcome, Date.now());
    record.status = result.status;
    record.result = result;
    record.writeReport = outcome.status === "succeeded" ? (outcome.output.write_report ?? null) : null;
    this.settling = this.persist().then(() => this.settle());
    try {
      await this.settling;
    } finally {
      this.settling = null;
    }
    this.emit("status", { status: result.status });
    if (outcome.status === "failed") this.emit("error", { code: "job_failed", message: outcome.error });
    this.emit("result", result);
    this.events.close();
    for (const resolve of this.terminalWaiters) resolve();
    this.terminalWaiters.clear();
  }

  /**
   * Releases the unspent reservation (idempotent per job), writes the final D1 row and queues
   * the webhook (recorded pending in the webhook outbox, so it survives a lost message). If D1 is
   * unreachable, an alarm retries until it goes through.
   */
  private async settle(): Promise<void> {
    const record = this.record;
    if (!record?.result || record.settled) return;
    const { spec, result } = record;
    await this.runningMarked;
    try {
      const db = createDb(this.env.DB);
      await settleReservation({ db, config: loadConfig(this.env) }, spec.userId, spec.id, result.credits_charged);
      await writeFinalJob(db, result, record.writeReport ?? null);
      await this.hooksEnqueued;
      const event = terminalEvent(spec, result.status);
      if (event) await enqueueWebhook(this.env, { jobId: spec.id, event });
      record.settled = true;
      await this.persist();
    } catch (error) {
      console.error(`settling job ${spec.id} failed; retrying`, error);
      await this.ctx.storage.setAlarm(Date.now() + SETTLE_RETRY_MS);
    }
  }

  // ---- Lifecycle webhooks ------------------------------------------------------------------

  /**
   * Queues a non-terminal delivery the request asked for (`webhook_events`), without holding the
   * run: written to the outbox and queued in the background; settlement waits for it, so every
   * lifecycle delivery is in the outbox before the terminal one.
   */
  private notify(event: LifecycleEvent, deliveryId: string, data: unknown): void {
    const spec = this.record?.spec;
    if (!spec?.notifiesWebhook || !spec.webhookEvents?.includes(event)) return;
    const body = eventEnvelope(event, spec.id, data);
    this.hooksEnqueued = this.hooksEnqueued.then(() =>
      enqueueWebhook(this.env, { jobId: spec.id, deliveryId, event, body }).catch((error: unknown) =>
        console.error(`queueing ${event} for job ${spec.id} failed`, error),
      ),
    );
  }

  /**
   * `research.progress`: when a new wave is under way (wave ≥ 1, above the last one delivered) and
   * PROGRESS_HOOK_INTERVAL_MS have passed since the last one; at most one per wave and per 10 s.
   */
  private notifyProgress(record: JobRecord, progress: ResearchProgress): void {
    if (!record.spec.webhookEvents?.includes("research.progress")) return;
    const last = record.progressHook;
    const now = Date.now();
    if (progress.wave < 1 || (last && (progress.wave <= last.wave || now - last.at < PROGRESS_HOOK_INTERVAL_MS))) return;
    record.progressHook = { wave: progress.wave, at: now };
    this.notify("research.progress", `${record.spec.id}:research.progress:${progress.wave}`, progress);
  }

  // ---- Persistence and events -------------------------------------------------------------

  private async persist(): Promise<void> {
    await this.ctx.storage.put("job", this.record);
  }

  /** Events are logged durably and streamed to subscribers (see JobEventStream); each payload is its event's schema. */
  private emit<Name extends JobEventName>(name: Name, data: JobEventData<Name>): void {
    this.events.emit(name, data);
  }

  /** Every event of the job is logged: it is terminal and its result was emitted (finish() emits once settled). */
  private eventsComplete(): boolean {
    return this.record !== null && isTerminal(this.record.status) && this.settling === null;
  }

  /** A non-terminal job with no run in this instance (evicted or restarted): schedule the resume. */
  private resumeIfOrphaned(): void {
    const record = this.record;
    if (!record || this.activeRun) return;
    if (isTerminal(record.status) ? record.settled : false) return;
    void this.ctx.storage.getAlarm().then((at) => {
      if (at === null || at > Date.now() + SECOND) return this.ctx.storage.setAlarm(Date.now());
    });
  }
}
