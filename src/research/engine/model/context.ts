/**
 * What one model call may hold. Long runs overflow a model's context in every open research agent;
 * here each call's evidence is cut to a budget before it is sent, so the prompt never grows with
 * the run. Characters stand in for tokens (about 4 a token, the estimate the gates use too).
 */

import type { ChatModel } from "../../providers/types";

/** Rough size in tokens of a text (4 characters a token): gates a call before it is made. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The blocks (numbered sources, passages) in order, cut to fit `maxChars` in all: each keeps at
 * most a fair share of what is left, so a long first source cannot crowd out the others, and a
 * block cut short ends with "…". Blocks that do not fit at all are left out (at least one is kept).
 */
export function fitBlocks(blocks: string[], maxChars: number): string[] {
  const kept: string[] = [];
  let left = Math.max(0, maxChars);
  for (const [index, block] of blocks.entries()) {
    const share = Math.floor(left / (blocks.length - index));
    if (share < 80 && kept.length > 0) break;
    const text = block.length <= share ? block : `${block.slice(0, Math.max(0, share - 1)).trimEnd()}…`;
    kept.push(text);
    left -= text.length;
  }
  return kept;
}

/**
 * Characters of evidence one call of a stage may carry: the stage's own budget (`stageTokens`),
 * less when the model's window is smaller (`LLM_CONTEXT_TOKENS`, e.g. a local model with 8k),
 * keeping room for the instructions and the answer.
 */
export function evidenceChars(llm: Pick<ChatModel, "contextTokens">, stageTokens: number, answerTokens: number): number {
  const window = llm.contextTokens;
  const tokens = window ? Math.min(stageTokens, Math.max(256, window - answerTokens - INSTRUCTION_TOKENS)) : stageTokens;
  return tokens * 4;
}

/** The system text and the question of a call, at most: what a window keeps besides the evidence. */
const INSTRUCTION_TOKENS = 1000;
