import { z } from "zod";
import { askModel, estimateTokens, evidenceChars, type ModelContext } from "../model";
import { criticPrompt } from "../prompts";

/**
 * The critic of pro and max with a model: each claim the offline check kept (a passage of every
 * source it cites holds at least half its words) is judged by the model against the exact quotes
 * it cites. The claims go in batches, a few calls at most, each cut to a context budget and paid
 * from the synthesis reserve through askModel. A claim whose batch could not be checked (the
 * envelope cannot pay, the provider failed, the answer never validated) keeps the offline verdict.
 */
export type Verdict = "supported" | "partly" | "unsupported";

export interface CriticClaim {
  text: string;
  /** The exact quotes of the passages it cites. */
  quotes: string[];
  /** The title of each quote's page (a page calls its subject "he" or "she": the title says who). */
  titles?: string[];
}

export interface CriticResult {
  /** One per claim; null where the model gave none (the offline check stands). */
  verdicts: (Verdict | null)[];
  /** Batches asked and batches answered. */
  calls: number;
  answered: number;
}

/** What one critic call may hold: its claims and quotes, in tokens. */
const CRITIC_CONTEXT_TOKENS = 6000;
/** Claims judged by one call at most. */
const CRITIC_BATCH = 16;
/** A quote longer than this is cut (a passage is a sentence; a long one is rare). */
const QUOTE_CHARS = 600;

const VERDICT = z.preprocess((value) => (typeof value === "string" ? value.trim().toLowerCase() : value), z.enum(["supported", "partly", "unsupported"]));
/** `{"verdicts": [...]}`, or the bare list a weaker model writes. */
const Verdicts = z.preprocess(
  (value) => (Array.isArray(value) ? { verdicts: value } : value),
  z.object({ verdicts: z.array(z.object({ id: z.coerce.number().int(), verdict: VERDICT })) }),
);

export async function criticCheck(model: ModelContext, question: string, claims: CriticClaim[]): Promise<CriticResult> {
  const verdicts: (Verdict | null)[] = claims.map(() => null);
  let calls = 0;
  let answered = 0;
  for (const batch of batches(claims, evidenceChars(model.llm, CRITIC_CONTEXT_TOKENS, 40 + 20 * CRITIC_BATCH) / 4)) {
    calls++;
    const blocks = batch.map((index) => claimBlock(batch.indexOf(index) + 1, claims[index]!));
    const answer = await askModel(model, { stage: "critic", prompt: criticPrompt(question, blocks), maxTokens: 40 + 20 * batch.length, schema: Verdicts });
    if (!answer.ok) {
      // The envelope cannot pay or the job stopped: later batches cannot be paid either.
      if (answer.reason === "budget" || answer.reason === "aborted") break;
      continue;
    }
    answered++;
    for (const { id, verdict } of answer.value.verdicts) {
      const index = batch[id - 1];
      if (index !== undefined) verdicts[index] = verdict;
    }
  }
  return { verdicts, calls, answered };
}

function claimBlock(id: number, claim: CriticClaim): string {
  const quotes = claim.quotes.map((quote, index) => {
    const title = claim.titles?.[index];
    return `  quote${title ? ` (${title})` : ""}: "${quote.length > QUOTE_CHARS ? `${quote.slice(0, QUOTE_CHARS - 1)}…` : quote}"`;
  });
  return `[${id}] ${claim.text}\n${quotes.join("\n")}`;
}

/** Claim indexes in batches that fit the critic's context budget. */
function batches(claims: CriticClaim[], contextTokens: number): number[][] {
  const all: number[][] = [];
  let current: number[] = [];
  let tokens = 0;
  for (const [index, claim] of claims.entries()) {
    const size = estimateTokens(claimBlock(current.length + 1, claim));
    if (current.length > 0 && (current.length >= CRITIC_BATCH || tokens + size > contextTokens)) {
      all.push(current);
      current = [];
      tokens = 0;
    }
    current.push(index);
    tokens += size;
  }
  if (current.length > 0) all.push(current);
  return all;
}
