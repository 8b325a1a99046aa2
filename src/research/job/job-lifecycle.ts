import { DurableObject } from "cloudflare:workers";
import { createDb } from "../../db/client";
import { isTerminal } from "../../db/schema/jobs";
import type { Env } from "../../env";
import { loadConfig } from "../../env";
import { settleReservation } from "../../services/billing/reservations";
import { enqueueWebhook } from "../../webhooks/delivery";
import type { JobEventData, JobEventName } from "../event-shapes";
import { SETTLE_ATTEMPTS_IN_PLACE, SETTLE_RETRY_IN_PLACE_MS, SETTLE_RETRY_MS } from "./deadlines";
import { JobEventStream } from "./job-events";
import { finalResult, type JobRecord, type Outcome, type ResearchResult } from "./job-state";
import { writeFinalJob } from "./job-store";
import { LifecycleHooks, terminalEvent } from "./lifecycle-hooks";

/**
 * A job object's record and how it changes: persisted before it is announced on the job's event
 * log, made terminal exactly once (finish) and then settled exactly once (settle: credits, final
 * D1 row, terminal webhook). ResearchJob (job.ts) builds on it with its RPC surface and the run;
 * kept apart so that what may happen to a job's record reads in one place, not among the run's steps.
 */
export abstract class JobLifecycle extends DurableObject<Env> {
  protected record: JobRecord | null = null;
  protected terminalWaiters = new Set<() => void>();
  protected events!: JobEventStream;
  /** The settlement in progress: a terminal result is not shown before its credits are settled. */
  protected settling: Promise<void> | null = null;
  /** The D1 row's "running" mark, written while the engine starts (settlement waits for it). */
  protected runningMarked: Promise<void> | null = null;
  /** Lifecycle deliveries (`webhook_events`) being written to the outbox; settlement waits for them. */
  protected readonly hooks: LifecycleHooks;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.hooks = new LifecycleHooks(env);
    ctx.blockConcurrencyWhile(async () => {
      this.events = new JobEventStream(ctx.storage.sql, Number(env.SSE_KEEPALIVE_MS) || undefined);
      this.record = (await ctx.storage.get<JobRecord>("job")) ?? null;
    });
  }

  // ---- Settlement --------------------------------------------------------------------------

  /** Makes the job terminal exactly once, then settles it. */
  protected async finish(outcome: Outcome): Promise<void> {
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
    this.announceEnd(result);
  }

  /** The job's last events (status, error, result), logged once; then its streams and waiters end. */
  private announceEnd(result: ResearchResult): void {
    if (!this.events.has("result")) {
      this.emit("status", { status: result.status });
      if (result.status === "failed") this.emit("error", { code: "job_failed", message: result.error ?? "" });
      this.emit("result", result);
    }
    this.events.close();
    for (const resolve of this.terminalWaiters) resolve();
    this.terminalWaiters.clear();
  }

  /**
   * What every read waits for before it shows the job: the settlement in flight, or, for a terminal
   * job whose settlement did not go through (D1 unreachable at finish, or an instance restarted
   * between the terminal record and its settlement), a new attempt now. A result that says what
   * was charged is then never shown while the ledger still holds the reservation, unless D1 is
   * still unreachable (the alarm retries it then).
   */
  protected async settled(): Promise<void> {
    const record = this.record;
    if (!this.settling && record?.result && !record.settled) {
      const result = record.result;
      // An instance restarted after the terminal record was stored never announced its end: it does so here.
      const attempt = this.settle()
        .then(() => this.announceEnd(result))
        .finally(() => {
          if (this.settling === attempt) this.settling = null;
        });
      this.settling = attempt;
    }
    await this.settling;
  }

  /**
   * Releases the unspent reservation (idempotent per job), writes the final D1 row and queues
   * the webhook (recorded pending in the webhook outbox, so it survives a lost message). A failed
   * attempt is tried again at once a few times (a busy D1 is usually back within a second); if D1
   * stays unreachable, an alarm retries until it goes through.
   */
  protected async settle(): Promise<void> {
    const record = this.record;
    if (!record?.result || record.settled) return;
    const { spec, result } = record;
    await this.runningMarked;
    for (let attempt = 1; ; attempt++) {
      try {
        const db = createDb(this.env.DB);
        await settleReservation({ db, config: loadConfig(this.env) }, spec.userId, spec.id, result.credits_charged);
        await writeFinalJob(db, result, record.writeReport ?? null);
        await this.hooks.enqueued;
        const event = terminalEvent(spec, result.status);
        if (event) await enqueueWebhook(this.env, { jobId: spec.id, event });
        record.settled = true;
        await this.persist();
        return;
      } catch (error) {
        if (attempt < SETTLE_ATTEMPTS_IN_PLACE) {
          console.warn(`settling job ${spec.id} failed (attempt ${attempt}); trying again`, error);
          await scheduler.wait(SETTLE_RETRY_IN_PLACE_MS * attempt);
          continue;
        }
        console.error(`settling job ${spec.id} failed; the alarm retries it`, error);
        await this.ctx.storage.setAlarm(Date.now() + SETTLE_RETRY_MS);
        return;
      }
    }
  }

  // ---- Persistence and events -------------------------------------------------------------

  protected async persist(): Promise<void> {
    await this.ctx.storage.put("job", this.record);
  }

  /** Events are logged durably and streamed to subscribers (see JobEventStream); each payload is its event's schema. */
  protected emit<Name extends JobEventName>(name: Name, data: JobEventData<Name>): void {
    this.events.emit(name, data);
  }

  /** Every event of the job is logged: it is terminal and its result was emitted (finish() emits once settled). */
  protected eventsComplete(): boolean {
    return this.record !== null && isTerminal(this.record.status) && this.settling === null;
  }
}
