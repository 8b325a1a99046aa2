import { z } from "zod";
import { askModel, type ModelContext } from "../../model";
import { revisePrompt } from "../../prompts";
import type { ModelQuote } from "./claim-check";
import { QuoteJson } from "./written-claims";

/**
 * The write stage's one revise turn: what failed its check goes back to the model with
 * why ("the quote … is not in source 3", "1898 is in none of its quotes"), to be corrected or
 * withdrawn. Paid from the synthesis reserve like every write call (askModel refuses a call the
 * envelope cannot pay); a job whose first write checks never makes it.
 */

/** A claim (or the answer) that failed its check, as it goes back to the model. */
export interface Failure {
  text: string;
  quotes: ModelQuote[];
  reason: string;
}

export type Revised = { text: string; quotes: ModelQuote[] } | "withdrawn";

export interface Revision {
  /** Per failed claim (in the order given): its correction, "withdrawn", or null when the model said nothing of it. */
  claims: (Revised | null)[];
  answer: Revised | null;
}

const Quotes = z
  .array(z.unknown())
  .catch([])
  .default([])
  .transform((items) => items.flatMap((item) => QuoteJson.safeParse(item).data ?? []));
const Revisal = z.object({ withdraw: z.boolean().catch(false).default(false), text: z.coerce.string().trim().optional().catch(undefined), quotes: Quotes });
const RevisionJson = z.object({
  claims: z
    .array(z.unknown())
    .catch([])
    .default([])
    .transform((items) => items.flatMap((item) => Revisal.extend({ id: z.coerce.number().int() }).safeParse(item).data ?? [])),
  answer: Revisal.nullable().catch(null).default(null),
});

/** Tokens the revision may take: a claim's correction each, and the answer's. */
const TOKENS_PER_CLAIM = 160;
const MAX_REVISE_TOKENS = 2000;

function block(label: string, failure: Failure): string {
  const quotes = failure.quotes.map((quote) => `  quote from source ${quote.source}: "${quote.quote}"`);
  return [`[${label}] ${failure.text}`, ...quotes, `  problem: ${failure.reason}`].join("\n");
}

const asRevised = (entry: z.infer<typeof Revisal>): Revised | null =>
  entry.withdraw ? "withdrawn" : entry.text ? { text: entry.text, quotes: entry.quotes } : null;

/** Asks the model once to correct or withdraw `claims` (and `answer`); null when the call could not be made or answered. */
export async function reviseClaims(
  model: ModelContext,
  question: string,
  evidenceBlocks: string[],
  claims: Failure[],
  answer: Failure | null,
): Promise<Revision | null> {
  const failures = claims.map((failure, index) => block(String(index + 1), failure));
  if (answer) failures.push(block("answer", answer));
  const reply = await askModel(model, {
    stage: "revise",
    prompt: revisePrompt(question, evidenceBlocks, failures),
    maxTokens: Math.min(MAX_REVISE_TOKENS, 100 + TOKENS_PER_CLAIM * failures.length),
    schema: RevisionJson,
  });
  if (!reply.ok) return null;
  const byId = new Map(reply.value.claims.map((entry) => [entry.id, entry]));
  return {
    claims: claims.map((_, index) => {
      const entry = byId.get(index + 1);
      return entry ? asRevised(entry) : null;
    }),
    answer: answer && reply.value.answer ? asRevised(reply.value.answer) : null,
  };
}
