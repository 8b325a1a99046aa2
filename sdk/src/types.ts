import type { components } from "./schema.js";

/**
 * The public shapes, named. Everything the REST API returns, and every event of a job's stream,
 * comes from the generated schema (npm run sdk:client).
 */
type Schemas = components["schemas"];

export type ResearchResult<Typed = unknown> = Omit<Schemas["ResearchResult"], "typed"> & { typed?: Typed | null };
/** The answer to a cancel: the job as the cancel left it, and what the cancel did (`cancel_outcome`: `already_finished` when the job ended first). */
export type CancelResult = Schemas["CancelResult"];
export type CancelOutcome = CancelResult["cancel_outcome"];
export type AsyncAccepted = Schemas["AsyncAccepted"];
export type ResearchQuote = Schemas["ResearchQuote"];
/** The plan a submit would run (`plan()`): review and edit it, then run it with `planId`. */
export type ResearchPlan = Schemas["ResearchPlan"];
export type ResearchRequest = Schemas["ResearchRequest"];
export type ResearchMode = ResearchRequest["mode"];
export type JobStatus = Schemas["ResearchResult"]["status"];
export type Source = Schemas["SourceDto"];
export type Citation = Schemas["Citation"];
export type ResearchLogRow = Schemas["ResearchLogRow"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookSendResult = Schemas["WebhookSendResult"];
/** The events a request may ask for (`webhookEvents`). */
export type WebhookEventName = NonNullable<ResearchRequest["webhook_events"]>[number];
export type Balance = Schemas["BalanceDto"];
export type ModePrice = Schemas["ModePrice"];
export type Collection = Schemas["Collection"];
export type CollectionDocument = Schemas["CollectionDocument"];
export type CollectionDocumentSummary = Schemas["CollectionDocumentSummary"];
export type DocumentInput = Schemas["DocumentInput"];
export type IngestResult = Schemas["IngestResult"];
export type Monitor = Schemas["Monitor"];
export type MonitorCreate = Schemas["MonitorCreate"];
export type MonitorUpdate = Schemas["MonitorUpdate"];
export type MonitorRun = Schemas["MonitorRun"];
export type MonitorDiff = Schemas["MonitorDiff"];
export type ErrorCode = Schemas["Error"]["error"]["code"];

/** A `progress` event's data: where the job is and what it has spent so far. */
export type Progress = Schemas["JobProgress"];

/** One event of a job's stream (`JobEvent` of the document); `id` increases, and `result` is the last. */
export type ResearchEvent = Schemas["JobEvent"];

export type ResearchEventName = ResearchEvent["event"];
/** Each event name this version knows, once: the compiler holds the list to the document's. */
const KNOWN_EVENTS: Record<ResearchEventName, true> = { status: true, progress: true, source: true, error: true, result: true };
export const RESEARCH_EVENT_NAMES = Object.keys(KNOWN_EVENTS) as readonly ResearchEventName[];
