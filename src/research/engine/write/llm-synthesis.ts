import { z } from "zod";
import type { AnswerConfidence } from "../../shapes";
import type { EvidenceAnalysis, EvidenceDoc, Passage } from "../evidence";
import { similarity } from "../evidence";
import { terms } from "../language";
import { askModel, evidenceChars, fitBlocks, type ModelContext, parseModelJson } from "../model";
import { writePrompt } from "../prompts";
import type { QueryAnalysis } from "../question";
import type { Synthesis, SynthesisOptions } from "./brief";
import { BriefWriter } from "./brief-writer";
import { citationsIn, OPEN_QUESTIONS } from "./citations";
import { type CriticClaim, criticCheck, type Verdict } from "./critic";

/** A claim is supported by a passage that holds at least this share of its content words. */
const SUPPORT = 0.5;
/** A short answer (an entity, a date) must have every content word in one passage: it is a span, not a paraphrase. */
const SHORT_ANSWER_TERMS = 4;
/** What one write call may hold: the numbered evidence, in tokens. */
const WRITE_CONTEXT_TOKENS = 8000;
/** The answer's length at most: a brief (lite, standard), or the longer report of pro and max. */
const BRIEF_TOKENS = 800;
const REPORT_TOKENS = 1600;
/** Passages of a source the model is shown besides its lead sentence: its best. */
const PASSAGES_PER_SOURCE = 6;
/** Open questions a report lists at most. */
const MAX_OPEN_QUESTIONS = 5;
/** Two kept sentences this similar say the same thing (the critic keeps the first). */
const SAME_THING = 0.7;

const CONFIDENCES = ["high", "medium", "low"] as const;
const lower = (value: unknown) => (typeof value === "string" ? value.trim().toLowerCase() : value);

/** What the write call answers. Its parts are read leniently: a malformed answer or list is no answer, not a failed call. */
const Written = z.object({
  brief: z.string().trim().min(1),
  answer: z
    .object({
      text: z.coerce.string().trim().min(1),
      confidence: z.preprocess(lower, z.enum(CONFIDENCES)).catch("low"),
      sources: z.array(z.coerce.number().int()).catch([]),
    })
    .nullable()
    .catch(null)
    .default(null),
  open_questions: z.array(z.coerce.string()).catch([]).default([]),
});
type Written = z.infer<typeof Written>;

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

/** The model's short answer where the sources it cites support it. */
export interface ModelShortAnswer {
  text: string;
  confidence: AnswerConfidence;
  /** The passages that support it (the short answer cites their sources). */
  basis: Passage[];
}

export interface ModelBrief {
  /** The model's brief under the contract, or the extractive one when nothing of the model's could be used. */
  synthesis: Synthesis;
  /** Null: the model gave no answer its sources support, and the engine's own answer stands. */
  answer: ModelShortAnswer | null;
}

/** One sentence of the model's brief, traced to the passages of the sources it cites. */
interface Claim {
  text: string;
  terms: string[];
  passages: Passage[];
  /** In the opening paragraph (before any heading or bullet). */
  opening: boolean;
  bullet: boolean;
  heading: { title: string; section: boolean } | null;
}

/**
 * The brief written by a hosted model (the write stage), with its short answer, from the same
 * evidence the extractive brief cites plus the next best pages, numbered and cut to a context
 * budget. The contract is the extractive brief's: each [n] of a model sentence is resolved to the
 * passage of source n that best supports it (its citation, exact quote and offsets); a marker
 * whose source does not support the sentence is removed, and a sentence left with no supported
 * marker (or none at all) is dropped. Pro and max (`options.critic`) write a longer report with
 * sections and the questions the sources leave open, drop a sentence that repeats one kept, and
 * have the model-critic judge every kept claim (and the answer) against the quotes it cites:
 * what it calls unsupported or partly supported is dropped; when it cannot be asked, the offline
 * checks above stand. The answer is stated only when its sources hold a passage with every word
 * of it (half, for a sentence-long answer), or the critic confirms it, and never when the critic
 * rejects it. If the call fails, the envelope cannot pay for it, or nothing usable remains, the
 * extractive brief stands and the engine's own answer with it.
 */
export async function llmBrief(
  model: ModelContext,
  query: QueryAnalysis,
  analysis: EvidenceAnalysis,
  extractive: Synthesis,
  options: SynthesisOptions,
  hooks: { beforeCritic?: () => Promise<void> } = {},
): Promise<ModelBrief> {
  const report = options.critic;
  const candidates = numberedDocs(analysis, extractive, options);
  const blocks = fitBlocks(
    candidates.map((doc, index) => evidenceBlock(index + 1, doc, analysis)),
    evidenceChars(model.llm, WRITE_CONTEXT_TOKENS, report ? REPORT_TOKENS : BRIEF_TOKENS),
  );
  const numbered = candidates.slice(0, blocks.length);
  const written = await askModel(model, {
    stage: "write",
    prompt: writePrompt(query.question, blocks, report),
    maxTokens: report ? REPORT_TOKENS : BRIEF_TOKENS,
    schema: Written,
    read: readWritten,
  });
  if (report) await hooks.beforeCritic?.();
  const fallback: ModelBrief = { synthesis: extractive, answer: null };
  if (!written.ok) return fallback;

  let claims = traceClaims(written.value.brief, numbered, report);
  let answer = answerCandidate(written.value, numbered);
  if (report) {
    // The critic: one verdict per claim (and the answer) against the quotes it cites.
    const asked: CriticClaim[] = claims.map((claim) => ({ text: claim.text, quotes: claim.passages.map(quoteOf(numbered)) }));
    if (answer) asked.push({ text: `The answer to "${query.question}" is: ${answer.text}`, quotes: answer.quotes.map(quoteOf(numbered)) });
    const { verdicts } = await criticCheck(model, query.question, asked);
    const rejected = (verdict: Verdict | null | undefined) => verdict === "unsupported" || verdict === "partly";
    claims = claims.filter((_, index) => !rejected(verdicts[index]));
    if (answer) {
      const verdict = verdicts[asked.length - 1];
      if (rejected(verdict)) answer = null;
      else if (verdict === "supported") answer = { ...answer, confirmed: true };
    }
  }
  const stated =
    answer && (answer.confirmed || answer.supported)
      ? { text: answer.text, confidence: answer.confidence, basis: answer.confirmed ? answer.quotes : answer.basis }
      : null;
  if (claims.length === 0) return { synthesis: extractive, answer: stated };

  const writer = new BriefWriter(analysis);
  writeClaims(writer, claims, report);
  const questions = report ? openQuestions(written.value) : [];
  if (questions.length > 0) {
    const section = writer.section(OPEN_QUESTIONS, true);
    for (const question of questions) section.addUncited(question);
  }
  // The overview of an open question stays the extractive one: its quotes are exact, which the short answer needs.
  return { synthesis: { ...writer.finish(options), ...(extractive.overview ? { overview: extractive.overview } : {}) }, answer: stated };
}

/** A JSON object, or a prose brief with its [n] markers (a weaker model's answer): the brief, no answer. */
function readWritten(text: string): unknown {
  const json = parseModelJson(text);
  if (json !== null && typeof json === "object" && !Array.isArray(json)) return json;
  return citationsIn(text).length > 0 ? { brief: text } : json;
}

/** The sources the model is shown: those the extractive brief cites, then the next best pages read, up to the brief's limit. */
function numberedDocs(analysis: EvidenceAnalysis, extractive: Synthesis, options: SynthesisOptions): EvidenceDoc[] {
  const docs = [...extractive.cited];
  for (const entry of analysis.ranked) {
    if (docs.length >= options.maxSources) break;
    if (entry.score > 0 && !docs.includes(entry.doc)) docs.push(entry.doc);
  }
  return docs;
}

/** "[n] Title (domain)" and the page's lead sentence and best passages, in page order. */
function evidenceBlock(n: number, doc: EvidenceDoc, analysis: EvidenceAnalysis): string {
  const ranked = analysis.ranked.find((entry) => entry.doc.index === doc.index);
  const best = (ranked?.best ?? []).slice(0, PASSAGES_PER_SOURCE).map((item) => item.passage);
  const passages = [...new Set([...doc.passages.slice(0, 1), ...best])].sort((a, b) => a.position - b.position);
  return `[${n}] ${doc.title} (${doc.domain})\n${passages.map((passage) => passage.text).join(" ")}`;
}

const quoteOf = (numbered: EvidenceDoc[]) => (passage: Passage) => {
  const doc = numbered.find((entry) => entry.index === passage.doc);
  return doc ? doc.text.slice(passage.start, passage.end) : passage.text;
};

/**
 * The model's sentences in order, each with the passages that support it: per [n], the passage
 * of source n holding the largest share of its words, kept when that is at least half. Headings
 * and bullets are kept as the model wrote them; a repeated sentence is dropped in a report.
 */
function traceClaims(brief: string, numbered: EvidenceDoc[], report: boolean): Claim[] {
  const claims: Claim[] = [];
  let heading: Claim["heading"] = null;
  let opening = true;
  let openQuestions = false;
  for (const raw of brief.split(/\n+/)) {
    const line = raw.trim();
    if (!line) continue;
    const title = headingOf(line);
    if (title) {
      openQuestions = isOpenQuestions(title.title);
      heading = title;
      opening = false;
      continue;
    }
    // Open questions claim nothing: they come from `open_questions` (or this section) and cite nothing.
    if (openQuestions) continue;
    const bullet = /^(?:[-*•]|\d+\.)\s+/.test(line);
    if (bullet) opening = false;
    const body = line.replace(/^(?:[-*•]|\d+\.)\s+/, "");
    for (const sentence of body.split(/(?<=\][.!?])\s+/)) {
      const numbers = citationsIn(sentence);
      if (numbers.length === 0 || numbers.some((n) => n < 1 || n > numbered.length)) continue;
      const text = sentence.replace(/\s*\[\d+\]/g, "").trim();
      const claimTerms = terms(text);
      const passages = [...new Set(numbers)]
        .map((n) => bestSupport(claimTerms, numbered[n - 1]!.passages))
        .filter((match): match is { passage: Passage; support: number } => match !== null && match.support >= SUPPORT)
        .map((match) => match.passage);
      if (passages.length === 0) continue;
      if (report && claims.some((other) => similarity(other.terms, claimTerms) > SAME_THING)) continue;
      claims.push({ text, terms: claimTerms, passages, opening, bullet, heading });
    }
  }
  return claims;
}

interface AnswerCandidate {
  text: string;
  confidence: AnswerConfidence;
  /** Its sources hold a passage with its words (every one for a short answer, half for a sentence). */
  supported: boolean;
  /** The critic said its quotes support it. */
  confirmed?: boolean;
  /** The passages that hold its words. */
  basis: Passage[];
  /** What the critic is shown: the passage of each cited source closest to the question and answer. */
  quotes: Passage[];
}

/** The model's answer, with what its cited sources hold of it; null when it gave none, none at `medium` or above, or cited nothing listed. */
function answerCandidate(written: Written, numbered: EvidenceDoc[]): AnswerCandidate | null {
  const answer = written.answer;
  if (!answer || answer.confidence === "low") return null;
  const docs = [...new Set(answer.sources)].filter((n) => n >= 1 && n <= numbered.length).map((n) => numbered[n - 1]!);
  if (docs.length === 0) return null;
  const answerTerms = terms(answer.text);
  const needed = answerTerms.length <= SHORT_ANSWER_TERMS ? 1 : SUPPORT;
  const matches = docs.map((doc) => bestSupport(answerTerms, doc.passages)).filter((match) => match !== null && match.support >= needed - 1e-9);
  const basis = matches.map((match) => match!.passage);
  // Where the words alone cannot show it (yes or no), the critic sees each source's passage nearest the answer in context.
  const context = terms(`${answer.text} ${written.brief.split(/\n/)[0] ?? ""}`);
  const quotes = basis.length > 0 ? basis : docs.flatMap((doc) => bestSupport(context, doc.passages)?.passage ?? []);
  // "high" needs every word of the answer in one passage, or the critic's confirmation (see llmBrief).
  const full = matches.some((match) => match!.support >= 1 - 1e-9);
  const confidence = answer.confidence === "high" && !full ? "medium" : answer.confidence;
  return { text: answer.text, confidence, supported: basis.length > 0, basis, quotes };
}

/** A heading line: a section ("## Findings") or the subject of a group ("**Shirley Temple**"). */
function headingOf(line: string): { title: string; section: boolean } | null {
  const section = /^#{1,6}\s+(.+?)\s*#*$/.exec(line)?.[1];
  const bold = /^\*\*([^*]+)\*\*:?$/.exec(line)?.[1];
  const title = (section ?? bold)?.replace(/[*_]/g, "").replace(/:$/, "").trim();
  return title ? { title, section: section !== undefined } : null;
}

const isOpenQuestions = (title: string) => title.toLowerCase() === OPEN_QUESTIONS.toLowerCase();

/** The kept claims as the model laid them out: the opening paragraph, then its sections and bullets. */
function writeClaims(writer: BriefWriter, claims: Claim[], report: boolean): void {
  // The brief opens with a statement: when the model's opening was dropped, its first kept claim opens.
  const opening = claims.some((claim) => claim.opening) ? claims.filter((claim) => claim.opening) : claims.slice(0, 1);
  const first = writer.paragraph();
  for (const claim of opening) first.add(claim.text, claim.passages);
  let block: ReturnType<BriefWriter["paragraph"]> | null = null;
  let place = "";
  for (const claim of claims) {
    if (opening.includes(claim)) continue;
    // In a report, what the model wrote under no heading is under "Findings".
    const heading = claim.heading ?? (report ? { title: "Findings", section: true } : null);
    const key = `${heading?.section ? "#" : "*"}${heading?.title ?? ""}`;
    if (!block || key !== place) {
      block =
        heading === null
          ? claim.bullet
            ? writer.group(null)
            : writer.paragraph()
          : heading.section
            ? writer.section(heading.title, claim.bullet)
            : writer.group(heading.title);
      place = key;
    }
    block.add(claim.text, claim.passages);
  }
}

/** The questions a report says the sources leave open: questions only (they are not claims), each once, a few. */
function openQuestions(written: Written): string[] {
  const underHeading: string[] = [];
  let inside = false;
  for (const raw of written.brief.split(/\n+/)) {
    const line = raw.trim();
    const heading = headingOf(line);
    if (heading) {
      inside = isOpenQuestions(heading.title);
      continue;
    }
    if (inside && line) underHeading.push(line.replace(/^(?:[-*•]|\d+\.)\s+/, ""));
  }
  const seen = new Set<string>();
  const questions: string[] = [];
  for (const candidate of [...written.open_questions, ...underHeading]) {
    const text = candidate
      .replace(/\s*\[\d+\]/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (!text.endsWith("?") || text.length > 300 || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    questions.push(text);
    if (questions.length >= MAX_OPEN_QUESTIONS) break;
  }
  return questions;
}
