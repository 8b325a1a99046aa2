/**
 * Planning: the searches of wave 1, and after each wave the follow-ups that target what is still
 * missing; offline, or by a hosted model when one is configured (the offline version its fallback).
 */
export { followUpQueries, planBranches } from "./queries";
export { nextHops } from "./hops";
export { comparisonBranches } from "./comparison";
export { coverageQueries } from "./coverage";
export { freshQueries, leavesRoomToGather, type ModelPlan, modelPlan, type ModelReflection, modelReflect, REFLECT_CONTEXT_CHARS } from "./model";
export { computePlan, type ComputedPlan, type FirstWave, firstWave, MAX_PLAN_QUERY_CHARS, MAX_PLAN_SUB_QUESTIONS, MAX_SUB_QUESTION_CHARS } from "./first-wave";
