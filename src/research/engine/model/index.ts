export { askModel, MODEL_ATTEMPTS, type ModelAnswer, type ModelAsk, type ModelContext, type ModelStage } from "./call";
export { estimateTokens, evidenceChars, fitBlocks } from "./context";
export { parseModelJson } from "./json";
