import { llmCostUsd } from "../../services/pricing";
import type { ChatModel } from "../providers/types";
import type { EvidenceAnalysis } from "./analysis";
import type { Budget } from "./budget";
import { type Synthesis, type SynthesisOptions } from "./brief";
import { briefSentences, citationsIn } from "./citations";
import { similarity } from "./rank";
import { terms } from "./text";
import type { QueryAnalysis } from "./query";

/** Rough prompt size in tokens (4 characters a token), to gate a call before it is made. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The brief written by a hosted model from the same numbered evidence the extractive brief
 * cites. The model's sentences are then checked (the critic pass): a sentence without a valid
 * [n], or whose words its cited source does not support, is dropped. If the model's answer
 * cannot be used, or the budget cannot pay for the call, the extractive brief stands.
 */
export async function llmBrief(
  llm: ChatModel,
  query: QueryAnalysis,
  analysis: EvidenceAnalysis,
  extractive: Synthesis,
  budget: Budget,
  options: SynthesisOptions,
  signal?: AbortSignal,
): Promise<Synthesis> {
  const evidenceBlocks = extractive.cited.map((doc, index) => {
    const ranked = analysis.ranked.find((entry) => entry.doc.index === doc.index);
    const passages = (ranked?.best ?? []).slice(0, 6).sort((a, b) => a.passage.position - b.passage.position);
    return `[${index + 1}] ${doc.title} (${doc.domain})\n${passages.map((item) => item.passage.text).join(" ")}`;
  });
  const system =
    "You are a research analyst. Write a concise brief answering the question from the numbered sources only. " +
    "Open with a direct answer when the sources support one (yes or no for comparison questions), then the key findings as bullet points. " +
    "Every sentence must end with one or more citations like [1] or [2][3] that refer to the numbered sources. Never cite a number that is not listed. No sentence without a citation.";
  const prompt = `Question: ${query.question}\n\nSources:\n${evidenceBlocks.join("\n\n")}`;
  const maxTokens = options.critic ? 1200 : 800;
  const estimate = llmCostUsd(estimateTokens(system + prompt), maxTokens);
  if (!budget.canAfford(estimate)) return extractive;
  let text: string;
  try {
    const response = await llm.complete({ system, messages: [{ role: "user", content: prompt }], maxTokens, signal });
    budget.chargeUsd(llmCostUsd(response.inputTokens, response.outputTokens));
    text = response.text;
  } catch {
    return extractive;
  }
  const sourceTerms = extractive.cited.map((doc) => new Set(doc.sentences.flatMap((sentence) => terms(sentence))));
  const kept: string[] = [];
  const statements: Synthesis["statements"] = [];
  for (const sentence of briefSentences(text)) {
    const numbers = citationsIn(sentence);
    if (numbers.length === 0 || numbers.some((n) => n < 1 || n > extractive.sources.length)) continue;
    // Supported: most of its content words occur in the sources it cites.
    const words = terms(sentence.replace(/\[\d+\]/g, ""));
    const supported = words.filter((word) => numbers.some((n) => sourceTerms[n - 1]!.has(word))).length;
    if (words.length > 0 && supported / words.length < 0.5) continue;
    if (options.critic && statements.some((statement) => similarity(terms(statement.text), words) > 0.7)) continue;
    kept.push(sentence);
    statements.push({ text: sentence, docs: numbers.map((n) => extractive.cited[n - 1]!.index) });
  }
  if (kept.length === 0) return extractive;
  const [first, ...rest] = kept;
  const brief = [first, rest.map((sentence) => `- ${sentence}`).join("\n")].filter(Boolean).join("\n\n");
  return { ...extractive, brief, statements };
}
