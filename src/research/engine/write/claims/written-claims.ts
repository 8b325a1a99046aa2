import { z } from "zod";
import { parseModelJson } from "../../model";
import { lineSentences, parseBrief, withoutMarkers } from "../brief-format";
import { citationsIn } from "../citations";
import type { ModelQuote } from "./claim-check";

/**
 * What the write stage asks the model for: the brief as claims in reading order, each
 * with the verbatim quotes it rests on, where it goes (the opening, a heading, a bullet), the
 * short answer with its own quotes, and, in a report, the questions the sources leave open. Read
 * leniently: a malformed claim is left out, not the whole answer.
 */

const CONFIDENCES = ["high", "medium", "low"] as const;
const lower = (value: unknown) => (typeof value === "string" ? value.trim().toLowerCase() : value);

export const QuoteJson = z.object({ source: z.coerce.number().int(), quote: z.coerce.string().trim().min(1) });
const Quotes = z
  .array(z.unknown())
  .catch([])
  .default([])
  .transform((items) => items.flatMap((item) => QuoteJson.safeParse(item).data ?? []));

const ClaimJson = z.object({
  text: z.coerce.string().trim().min(1),
  quotes: Quotes,
  heading: z.string().trim().min(1).nullable().catch(null).default(null),
  bullet: z.boolean().catch(false).default(false),
});

export interface WrittenClaim {
  text: string;
  quotes: ModelQuote[];
  heading: string | null;
  bullet: boolean;
}

export interface WrittenAnswer {
  text: string;
  confidence: (typeof CONFIDENCES)[number];
  quotes: ModelQuote[];
}

export const WrittenJson = z.object({
  claims: z
    .array(z.unknown())
    .transform((items): WrittenClaim[] => items.flatMap((item) => ClaimJson.safeParse(item).data ?? []))
    .refine((claims) => claims.length > 0, "no claim has a text"),
  answer: z
    .object({
      text: z.coerce.string().trim().min(1),
      confidence: z.preprocess(lower, z.enum(CONFIDENCES)).catch("low"),
      quotes: Quotes,
    })
    .nullable()
    .catch(null)
    .default(null),
  open_questions: z.array(z.coerce.string()).catch([]).default([]),
});
export type Written = z.infer<typeof WrittenJson>;

/**
 * The model's answer as JSON; a brief written as Markdown with [n] markers instead (a weaker
 * model, or the old format) becomes claims without quotes, so the revise turn asks for them.
 */
export function readWritten(text: string): unknown {
  const json = parseModelJson(text);
  if (json !== null && typeof json === "object" && !Array.isArray(json)) {
    const object = json as Record<string, unknown>;
    if (!("claims" in object) && typeof object.brief === "string") return { ...object, claims: claimsOfMarkdown(object.brief) };
    return object;
  }
  return citationsIn(text).length > 0 ? { claims: claimsOfMarkdown(text) } : json;
}

/** Each sentence of a Markdown brief as a claim without quotes, under the heading it was written under (read with the one brief format, brief-format.ts). */
function claimsOfMarkdown(markdown: string): WrittenClaim[] {
  return parseBrief(markdown).flatMap((block) =>
    block.lines.flatMap((line) =>
      lineSentences(line).flatMap((sentence) => {
        const text = withoutMarkers(sentence).trim();
        return text ? [{ text, quotes: [], heading: block.heading?.title ?? null, bullet: block.bullets }] : [];
      }),
    ),
  );
}
