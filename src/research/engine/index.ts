/**
 * The research engine: one entry point, runResearch(), plus the pieces the jobs layer needs
 * (fan-out task types, errors, providers from configuration). Importable without Hono.
 */
export { runResearch } from "./pipeline";
export type { PriorEvidence, PriorPage } from "./prior";
export type { ResearchInput, ResearchDeps, ResearchHooks, ResearchOutput, ResearchProgress, SourceDto, CitationDto, ShortAnswer } from "./types";
export type { StopReason } from "./budget";
export type { WriteReport, WrittenClaimReport } from "./write-report";
export { InProcessTaskRunner, type TaskRunner, type SearchTask, type ReadTask, type TaskResult } from "./fan-out";
export { ResearchCancelledError, TypedOutputError, UnsupportedFieldsError, InvalidSchemaError, NoEvidenceError, type FoundBeforeFailure } from "./errors";
export { compileSchema } from "./write";
export { createChatModel, createProviders, type ProviderConfig } from "../providers";
