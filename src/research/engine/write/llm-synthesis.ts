import { llmCostUsd } from "../../pricing";
import type { ChatModel } from "../../providers/types";
import type { EvidenceAnalysis } from "../evidence";
import type { Budget } from "../budget";
import type { Synthesis, SynthesisOptions } from "./brief";
import { BriefWriter } from "./brief-writer";
import { briefSentences, citationsIn } from "./citations";
import type { Passage } from "../evidence";
import { similarity } from "../evidence";
import { terms } from "../language";
import type { QueryAnalysis } from "../question";
import { briefPrompt } from "../prompts";

/** Rough prompt size in tokens (4 characters a token), to gate a call before it is made. */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A claim is supported by a passage that holds at least this share of its content words. */
const SUPPORT = 0.5;

/** The passage of a page that best supports a claim, with the share of the claim's words it holds. */
export function bestSupport(claimTerms: string[], passages: Passage[]): { passage: Passage; support: number } | null {
  if (claimTerms.length === 0) return null;
  let best: { passage: Passage; support: number } | null = null;
  for (const passage of passages) {
    const own = new Set(passage.terms);
    const support = claimTerms.filter((term) => own.has(term)).length / claimTerms.length;
    if (!best || support > best.support) best = { passage, support };
  }
  return best;
}

/**
 * The brief written by a hosted model from the same numbered evidence the extractive brief
 * cites, under the same contract: every sentence must cite what was read. Each [n] of a model
 * sentence is resolved to the passage of source n that best supports it (its citation); a
 * marker whose source does not support the sentence is removed, and a sentence left with no
 * supported marker (or none at all) is dropped. If nothing usable remains, the call fails, or
 * the budget cannot pay for it, the extractive brief stands.
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
  const { system, user: prompt } = briefPrompt(query.question, evidenceBlocks);
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

  const writer = new BriefWriter(analysis);
  const opening = writer.paragraph();
  const findings = writer.group(null);
  const kept: string[][] = [];
  for (const sentence of briefSentences(text)) {
    const numbers = citationsIn(sentence);
    if (numbers.length === 0 || numbers.some((n) => n < 1 || n > extractive.cited.length)) continue;
    const claim = sentence.replace(/\s*\[\d+\]/g, "").trim();
    const claimTerms = terms(claim);
    const basis = [...new Set(numbers)]
      .map((n) => bestSupport(claimTerms, extractive.cited[n - 1]!.passages))
      .filter((match): match is { passage: Passage; support: number } => match !== null && match.support >= SUPPORT);
    if (basis.length === 0) continue;
    // The critic (pro, max) drops a sentence that repeats one already kept.
    if (options.critic && kept.some((other) => similarity(other, claimTerms) > 0.7)) continue;
    kept.push(claimTerms);
    (kept.length === 1 ? opening : findings).add(claim, basis.map((match) => match.passage));
  }
  if (kept.length === 0) return extractive;
  // The overview of an open question stays the extractive one: its quotes are exact, which the short answer needs.
  return { ...writer.finish(options), ...(extractive.overview ? { overview: extractive.overview } : {}) };
}
