import type { components } from "./schema.js";

/**
 * The public shapes, named. Everything the REST API returns comes from the generated schema
 * (npm run sdk:client); the SSE payloads are not in /openapi.json (an event stream is one string
 * there), so their types are written here from the service's Events contract.
 */
type Schemas = components["schemas"];

export type ResearchResult<Typed = unknown> = Omit<Schemas["ResearchResult"], "typed"> & { typed?: Typed | null };
export type AsyncAccepted = Schemas["AsyncAccepted"];
export type ResearchRequest = Schemas["ResearchRequest"];
export type ResearchMode = ResearchRequest["mode"];
export type JobStatus = Schemas["ResearchResult"]["status"];
export type Source = Schemas["SourceDto"];
export type Citation = Schemas["Citation"];
export type ResearchLogRow = Schemas["ResearchLogRow"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type Balance = Schemas["BalanceDto"];
export type ModePrice = Schemas["ModePrice"];
export type Collection = Schemas["Collection"];
export type CollectionDocument = Schemas["CollectionDocument"];
export type CollectionDocumentSummary = Schemas["CollectionDocumentSummary"];
export type DocumentInput = Schemas["DocumentInput"];
export type IngestResult = Schemas["IngestResult"];
export type ErrorCode = Schemas["Error"]["error"]["code"];

/** A `progress` event: where the job is and what it has spent so far. */
export interface Progress {
  stage: "planning" | "searching" | "reading" | "analyzing" | "reflecting" | "synthesizing" | "critic" | "typed_output" | "done";
  wave: number;
  searches: number;
  pages: number;
  cost_usd: number;
}

/** One event of a job's stream; `id` increases, and `result` is the last. */
export type ResearchEvent =
  | { id: number; event: "status"; data: { status: JobStatus } }
  | { id: number; event: "progress"; data: Progress }
  | { id: number; event: "source"; data: Source }
  | { id: number; event: "error"; data: { code: string; message: string } }
  | { id: number; event: "result"; data: ResearchResult };

export type ResearchEventName = ResearchEvent["event"];
export const RESEARCH_EVENT_NAMES: readonly ResearchEventName[] = ["status", "progress", "source", "error", "result"];
