import type { components } from "./api/schema";

export type JobStatus = components["schemas"]["ResearchResult"]["status"];

/**
 * Whether each job status is terminal (the job changes no more). A Record over the generated
 * JobStatus: a status the service adds fails this file's type check after `npm run web:client`,
 * and test/repo/vocabularies.test.ts holds the values to the service's own table.
 */
const IS_TERMINAL: Record<JobStatus, boolean> = { pending: false, running: false, succeeded: true, failed: true, cancelled: true };

/** Every status, in the order of a job's life (the filters offer them so). */
export const JOB_STATUSES = Object.keys(IS_TERMINAL) as JobStatus[];
export const isTerminal = (status: JobStatus): boolean => IS_TERMINAL[status];
