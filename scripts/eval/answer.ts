/**
 * The short answer a result carries, as the evaluation scores it. A finished ResearchResult has
 * `answer: { text, confidence, citations } | null`. A server that predates the field has no
 * `answer` key at all; to measure such a revision ("before"), and on request (--answer-from
 * opening) for any revision, the brief's opening sentence stands in for the answer, with
 * confidence "unknown".
 */
import { openingSentence } from "./sentences";

export const CONFIDENCES = ["high", "medium", "low"] as const;
export type Confidence = (typeof CONFIDENCES)[number];
/** "unknown": the text is a brief's opening sentence, which states no confidence. */
export type ScoredConfidence = Confidence | "unknown";

export interface EvalAnswer {
  text: string;
  confidence: ScoredConfidence;
  /** The engine's estimated probability that the answer is right, when it states one. */
  probability?: number;
  /** 0-based indexes into the result's sources. */
  citations: number[];
}

/**
 * Where the scored answer came from: the result's `answer` field; the opening sentence because
 * --answer-from opening asked for it; or the opening sentence because the result had no `answer`
 * field (a server older than the field).
 */
export type AnswerSource = "field" | "opening" | "opening-fallback";

export type AnswerFrom = "field" | "opening";

/** What a result may hold: `answer` is absent on servers that predate it. */
export interface AnswerBearing {
  brief: string | null;
  answer?: { text: string; confidence: Confidence; probability?: number; citations: number[] } | null;
}

/**
 * How the engines before issue 25 opened a brief whose sources do not answer (write/opening.ts):
 * such an opening asserts nothing, so it counts as no answer rather than as a wrong one.
 */
const DECLINING_OPENING = /^the sources?(?: read)? do(?:es)? not answer/i;
/** Citation markers as the brief writes them: [1], [2, 3]. */
const CITATION_MARKERS = /\s*\[(\d+(?:\s*,\s*\d+)*)\]/g;

/** The opening sentence as an answer (a Markdown heading is no sentence): its citation markers become source indexes. */
export function answerFromOpening(brief: string): EvalAnswer | null {
  const prose = brief
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n");
  const sentence = openingSentence(prose)
    .replace(/^[>*_\-\s]+/, "")
    .trim();
  if (!sentence || DECLINING_OPENING.test(sentence)) return null;
  const citations = [...sentence.matchAll(CITATION_MARKERS)].flatMap((match) => match[1]!.split(",").map((n) => Number(n.trim()) - 1));
  return { text: sentence.replace(CITATION_MARKERS, "").trim(), confidence: "unknown", citations: [...new Set(citations)] };
}

export function readAnswer(result: AnswerBearing, from: AnswerFrom): { answer: EvalAnswer | null; source: AnswerSource } {
  if (from === "opening") return { answer: answerFromOpening(result.brief ?? ""), source: "opening" };
  if (!("answer" in result) || result.answer === undefined) return { answer: answerFromOpening(result.brief ?? ""), source: "opening-fallback" };
  const answer = result.answer;
  const probability = typeof answer?.probability === "number" ? { probability: answer.probability } : {};
  return { answer: answer ? { text: answer.text, confidence: answer.confidence, ...probability, citations: [...answer.citations] } : null, source: "field" };
}
