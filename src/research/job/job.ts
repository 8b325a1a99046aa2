import { createDb } from "../../db/client";
import { isTerminal } from "../../db/schema/jobs";
import type { Env } from "../../env";
import { SECOND } from "../../lib/time";
import { createChatModel, type PriorEvidence, type ResearchProgress, runResearch, type SourceDto } from "../engine";
import { QueuedTaskRunner, type TaskAnswer, type TaskOutcome } from "../tasks/queued-fan-out";
import { taskQueueFor } from "../tasks/task-queues";
import { taskRunnerFor } from "../tasks/task-runner";
import { DEADLINE_GRACE_MS, DeadlineExceeded, RESUME_AFTER_MS } from "./deadlines";
import { createPriorTable, followUpEvidenceOf, storedPrior, storePrior } from "./follow-up-evidence";
import type { JobEventBatch } from "./job-events";
import { JobLifecycle } from "./job-lifecycle";
import { jobObject, type ResearchJobRpc } from "./job-object";
import { type JobRecord, type JobSpec, liveResult, plainSources, type ResearchResult } from "./job-state";
import { markJobRunning } from "./job-store";
import { outcomeOf } from "./run-outcome";

/**
 * Lets the runtime pump the event just written to every subscriber before the engine's next
 * stretch of CPU work (ranking, synthesis) holds this object's thread.
 */
const yieldToSubscribers = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * One research job. It persists its request, budget and reservation before acting, runs the
 * engine inside its alarm (so the runtime retries it and a restart resumes it), runs each wave's
 * searches and reads in the job when they are local (the corpus, collections) and through the
 * research-tasks queue when they go to the web (task-runner.ts); either way each answer is kept in
 * its storage, so a resumed run replays finished tasks instead of redoing and re-charging them and
 * a follow-up starts from them. It settles the credits exactly once and writes the final row to D1
 * (job-lifecycle.ts), and serves its progress over SSE to any number of subscribers.
 */
export class ResearchJob extends JobLifecycle implements ResearchJobRpc {
  private activeRun: Promise<void> | null = null;
  private abortRun: AbortController | null = null;
  readonly tasks: QueuedTaskRunner;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // The fan-out's answers and a follow-up's prior evidence live in this object's SQLite storage.
    this.tasks = new QueuedTaskRunner(ctx);
    this.tasks.createTables();
    createPriorTable(ctx.storage.sql);
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
    await this.settled();
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
    await this.settled();
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
      await this.settled();
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
      await this.settled();
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
    await this.settled();
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
    await this.settled();
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
      await this.settled();
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
        this.hooks.notify(record.spec, "research.started", `${record.spec.id}:research.started`, { status: "running" });
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
      await this.finish(outcomeOf(error, record));
    } finally {
      clearTimeout(deadlineTimer);
      this.abortRun = null;
    }
  }

  // ---- Follow-ups (issue 45) ------------------------------------------------------------------

  /** What a follow-up of this job starts from (follow-up-evidence.ts); null unless it succeeded. */
  async followUpEvidence(): Promise<PriorEvidence | null> {
    return followUpEvidenceOf(this.ctx.storage.sql, this.record);
  }

  /**
   * A follow-up's prior evidence: asked of the previous job's object at its first run and kept here
   * (a resumed run, and any follow-up of this job, read it from here). Null for a job that follows none.
   */
  private async priorEvidence(record: JobRecord): Promise<PriorEvidence | null> {
    const previous = record.spec.previousJobId;
    if (!previous) return null;
    if (record.priorPages) return storedPrior(this.ctx.storage.sql);
    const prior = await jobObject(this.env, previous).followUpEvidence();
    // Checked at submit (a succeeded job of the same account); an object that lost it is an internal failure, refunded.
    if (!prior) throw new Error(`the evidence of job ${previous} is not available`);
    storePrior(this.ctx.storage, prior);
    record.priorPages = Object.fromEntries(prior.pages.map((page) => [page.url, page.job_id]));
    await this.persist();
    return prior;
  }

  private async onProgress(progress: ResearchProgress): Promise<void> {
    if (!this.record || isTerminal(this.record.status)) return;
    this.record.progress = progress;
    this.hooks.progress(this.record, progress);
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
