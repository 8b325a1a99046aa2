import type { AnswerConfidence } from "../../shapes";
import type { EvidenceAnalysis, EvidenceDoc, Passage } from "../evidence";
import { pageDate, similarity } from "../evidence";
import { terms } from "../language";
import { askModel, evidenceChars, type ModelContext } from "../model";
import { writePrompt } from "../prompts";
import type { QueryAnalysis } from "../question";
import type { Synthesis, SynthesisOptions } from "./brief";
import { BriefWriter } from "./brief-writer";
import { LEFT_OPEN_HEADING } from "./citations";
import { claimNames } from "./claims/checkable";
import { ClaimChecker, type ClaimCheck, type ModelQuote } from "./claims/claim-check";
import { evidenceBlocks } from "./claims/evidence-blocks";
import { type KeptClaim, layOut, leansOnPrevious } from "./claims/layout";
import { type Failure, reviseClaims } from "./claims/revise";
import { readWritten, type Written, type WrittenAnswer, WrittenJson } from "./claims/written-claims";
import { type CriticClaim, criticCheck, type Verdict } from "./critic";
import type { WriteReport, WrittenClaimReport } from "../write-report";

/** What one write call may hold: the numbered evidence, in tokens. */
const WRITE_CONTEXT_TOKENS = 8000;
/** The answer's length at most: a brief (lite, standard), or the longer report of pro and max. */
const BRIEF_TOKENS = 1200;
const REPORT_TOKENS = 2400;
/** The questions a report leaves open (its "Open questions" section), at most. */
const MAX_LEFT_OPEN_QUESTIONS = 5;
/** Two kept sentences this similar say the same thing (a report keeps the first). */
const SAME_THING = 0.7;

/** The model's short answer where its quotes hold it. */
export interface ModelShortAnswer {
  text: string;
  confidence: AnswerConfidence;
  /** The spans it rests on (the short answer cites their sources). */
  basis: Passage[];
}

export interface ModelBrief {
  /** The model's brief under the contract, or the extractive one when nothing of the model's could be used. */
  synthesis: Synthesis;
  /** Null: the model gave no answer its quotes hold, and the engine's own answer stands. */
  answer: ModelShortAnswer | null;
  /** What was kept of the model's writing and why not the rest; null when the write call gave nothing. */
  report: WriteReport | null;
}

/** One claim of the model's writing as it goes through the checks. */
interface Draft {
  text: string;
  quotes: ModelQuote[];
  heading: string | null;
  bullet: boolean;
  opening: boolean;
  check: ClaimCheck;
  report: WrittenClaimReport;
}

/**
 * The brief written by a hosted model (the write stage). The model writes claims in
 * reading order, each with the verbatim quotes it rests on (written-claims.ts). Each is checked
 * exactly (claim-check.ts): every quote a span of its source's full text, every name and number
 * of the claim in its quotes; a claim that checks is kept as the model wrote it (paraphrase is
 * fine) and its quotes become its citations, with their offsets. Where the envelope pays for it,
 * the critic then judges each claim against its quotes, in every mode. What fails goes back to
 * the model once with why (revise.ts), to be corrected or withdrawn; what still fails is dropped.
 * The brief is laid out from what is kept (layout.ts): a full opening, no dangling pronoun, no
 * empty heading, no orphaned bullet. The short answer is stated only on quotes that hold it. If
 * the write call fails, the envelope cannot pay for it, or nothing checks, the extractive brief
 * stands and the engine's own answer with it.
 */
export async function llmBrief(
  model: ModelContext,
  query: QueryAnalysis,
  analysis: EvidenceAnalysis,
  extractive: Synthesis,
  options: SynthesisOptions,
  hooks: { beforeCritic?: () => Promise<void>; readMore?: ReadonlySet<number> } = {},
): Promise<ModelBrief> {
  const report = options.critic;
  const maxTokens = report ? REPORT_TOKENS : BRIEF_TOKENS;
  const candidates = numberedDocs(analysis, extractive, options, hooks.readMore);
  const blocks = evidenceBlocks(candidates, analysis, query, evidenceChars(model.llm, WRITE_CONTEXT_TOKENS, maxTokens), hooks.readMore);
  const numbered = candidates.slice(0, blocks.length);
  const written = await askModel(model, {
    stage: "write",
    prompt: writePrompt(query.question, blocks, report),
    maxTokens,
    schema: WrittenJson,
    read: readWritten,
  });
  if (!written.ok) return { synthesis: extractive, answer: null, report: null };

  const checker = new ClaimChecker(numbered);
  const questionNames = claimNames(query.question, (word) => checker.isName(word));
  let calls = 1;
  const drafts = draftsOf(written.value, checker);
  const checkedPassages = () => drafts.flatMap(passagesOf);
  let answer = answerDraft(written.value.answer, checker, questionNames, checkedPassages());

  // The critic, in every mode whose envelope pays for it: each claim that checked, and the answer, against its quotes.
  await hooks.beforeCritic?.();
  const judged = drafts.filter((draft) => draft.check.ok);
  // The page's title, with its date when it states one.
  const titleOf = (passage: Passage) => {
    const doc = numbered.find((candidate) => candidate.index === passage.doc);
    const date = pageDate(doc?.published_at);
    return doc ? `${doc.title}${date ? `; published ${date}` : ""}` : "";
  };
  const criticClaim = (text: string, passages: Passage[]): CriticClaim => ({
    text,
    quotes: passages.map((passage) => passage.text),
    titles: passages.map(titleOf),
  });
  const asked: CriticClaim[] = judged.map((draft) => criticClaim(draft.text, passagesOf(draft)));
  if (answer?.check.ok) asked.push(criticClaim(`The answer to "${query.question}" is: ${answer.text}`, answer.check.passages));
  const critic = asked.length > 0 ? await criticCheck(model, query.question, asked) : { verdicts: [] as (Verdict | null)[], calls: 0 };
  calls += critic.calls;
  const rejected = (verdict: Verdict | null | undefined) => verdict === "unsupported" || verdict === "partly";
  for (const [index, draft] of judged.entries()) {
    if (rejected(critic.verdicts[index])) draft.check = { ok: false, kind: "critic", reason: "a fact checker found that its quotes do not state all of it" };
  }
  let confirmed = false;
  if (answer?.check.ok) {
    const verdict = critic.verdicts[asked.length - 1];
    if (rejected(verdict)) answer.check = { ok: false, kind: "critic", reason: "a fact checker found that its quotes do not state it" };
    confirmed = verdict === "supported";
  }

  // A sentence leaning on one that failed ("He then…") goes back with it, to name its subject.
  for (const [index, draft] of drafts.entries()) {
    const before = drafts[index - 1];
    if (draft.check.ok && before && !before.check.ok && leansOnPrevious(draft.text))
      draft.check = { ok: false, kind: "dangling", reason: "it leans on the sentence before it, which failed: name its subject" };
  }

  // The one revise turn: only when something failed.
  const failed = drafts.filter((draft) => !draft.check.ok);
  const answerFailed = answer !== null && !answer.check.ok ? answer : null;
  if (failed.length > 0 || answerFailed) {
    calls++;
    const revision = await reviseClaims(model, query.question, blocks, failed.map(failureOf), answerFailed ? failureOf(answerFailed) : null);
    for (const [index, draft] of failed.entries()) {
      const revised = revision?.claims[index] ?? null;
      draft.report.revised = true;
      if (revised === "withdrawn") draft.report.reason = `withdrawn: ${draft.report.reason}`;
      else if (revised) {
        const check = checker.check(revised.text, revised.quotes);
        if (check.ok && !leansOnPrevious(revised.text)) Object.assign(draft, { text: revised.text, quotes: revised.quotes, check });
      }
    }
    if (answer && answerFailed) {
      const revised = revision?.answer ?? null;
      if (revised && revised !== "withdrawn") {
        const check = checker.checkAnswer(revised.text, revised.quotes, questionNames, checkedPassages());
        if (check.ok) answer = { ...answer, text: revised.text, quotes: revised.quotes, check };
      }
    }
  }

  let kept = drafts.filter((draft) => draft.check.ok);
  // A report says each thing once: a kept sentence that repeats an earlier one is dropped.
  if (report) kept = withoutRepeats(kept);
  for (const draft of drafts) draft.report.kept = kept.includes(draft);

  const stated = answer?.check.ok ? statedAnswer(answer, confirmed, questionNames) : null;
  const writeReport: WriteReport = {
    claims: drafts.map((draft) => draft.report),
    answer: written.value.answer ? { text: written.value.answer.text, kept: stated !== null, reason: answerReason(answer, written.value.answer) } : null,
    calls,
  };
  if (kept.length === 0) return { synthesis: extractive, answer: stated, report: writeReport };

  const writer = new BriefWriter(analysis);
  layOut(writer, kept.map(keptClaim), report);
  const questions = report ? openQuestions(written.value) : [];
  if (questions.length > 0) {
    const section = writer.section(LEFT_OPEN_HEADING, true);
    for (const question of questions) section.addUncited(question);
  }
  // The overview of an open-ended question stays the extractive one: its quotes are exact, which the short answer needs.
  return {
    synthesis: { ...writer.finish(options), ...(extractive.overview ? { overview: extractive.overview } : {}) },
    answer: stated,
    report: writeReport,
  };
}

/** The sources the model is shown: those the extractive brief cites, the pages its reflection asked more of, then the next best pages read, up to the brief's limit. */
function numberedDocs(analysis: EvidenceAnalysis, extractive: Synthesis, options: SynthesisOptions, readMore: ReadonlySet<number> = new Set()): EvidenceDoc[] {
  const docs = [...extractive.cited];
  for (const entry of analysis.ranked) if (readMore.has(entry.doc.index) && !docs.includes(entry.doc) && docs.length < options.maxSources) docs.push(entry.doc);
  for (const entry of analysis.ranked) {
    if (docs.length >= options.maxSources) break;
    if (entry.score > 0 && !docs.includes(entry.doc)) docs.push(entry.doc);
  }
  return docs;
}

/** The model's claims, each checked, with where it goes (its opening: before its first heading or bullet). */
function draftsOf(written: Written, checker: ClaimChecker): Draft[] {
  let opening = true;
  return written.claims.map((claim) => {
    if (claim.heading !== null || claim.bullet) opening = false;
    const check = checker.check(claim.text, claim.quotes);
    return { ...claim, opening, check, report: { text: claim.text, kept: false, revised: false, reason: check.ok ? null : check.reason } };
  });
}

interface AnswerDraft {
  text: string;
  confidence: AnswerConfidence;
  quotes: ModelQuote[];
  check: ClaimCheck;
}

/** The model's answer, checked on its quotes; null when it gave none or only a guess ("low"). */
function answerDraft(answer: WrittenAnswer | null, checker: ClaimChecker, questionNames: string[], claims: Passage[]): AnswerDraft | null {
  if (!answer || answer.confidence === "low") return null;
  return {
    text: answer.text,
    confidence: answer.confidence,
    quotes: answer.quotes,
    check: checker.checkAnswer(answer.text, answer.quotes, questionNames, claims),
  };
}

/**
 * The answer as stated: on its quotes. `high` only when its quotes name what the question asks
 * about (its subject) and the critic, when it could be asked, confirmed them.
 */
function statedAnswer(answer: AnswerDraft, confirmed: boolean, questionNames: string[]): ModelShortAnswer | null {
  if (!answer.check.ok) return null;
  const basis = answer.check.passages;
  const joined = ` ${basis.map((passage) => terms(passage.text).join(" ")).join(" ")} `;
  const namesSubject = questionNames.every((name) => joined.includes(` ${terms(name).join(" ")} `));
  const confidence: AnswerConfidence = answer.confidence === "high" && !(namesSubject || confirmed) ? "medium" : answer.confidence;
  return { text: answer.text, confidence, basis };
}

function answerReason(answer: AnswerDraft | null, written: WrittenAnswer): string | null {
  if (written.confidence === "low") return "the model's confidence was low";
  if (!answer) return null;
  return answer.check.ok ? null : answer.check.reason;
}

const passagesOf = (draft: Draft) => (draft.check.ok ? draft.check.passages : []);

const failureOf = (draft: { text: string; quotes: ModelQuote[]; check: ClaimCheck }): Failure => ({
  text: draft.text,
  quotes: draft.quotes,
  reason: draft.check.ok ? "" : draft.check.reason,
});

const keptClaim = (draft: Draft): KeptClaim => ({
  text: draft.text,
  passages: passagesOf(draft),
  heading: draft.heading,
  bullet: draft.bullet,
  opening: draft.opening,
});

function withoutRepeats(drafts: Draft[]): Draft[] {
  const kept: Draft[] = [];
  const said: string[][] = [];
  for (const draft of drafts) {
    const own = terms(draft.text);
    if (said.some((other) => similarity(other, own) > SAME_THING)) {
      draft.report.reason = "it repeats an earlier claim";
      continue;
    }
    said.push(own);
    kept.push(draft);
  }
  return kept;
}

/** The questions a report says the sources leave open: questions only (they are not claims), each once, a few. */
function openQuestions(written: Written): string[] {
  const seen = new Set<string>();
  const questions: string[] = [];
  for (const candidate of written.open_questions) {
    const text = candidate
      .replace(/\s*\[\d+\]/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (!text.endsWith("?") || text.length > 300 || seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    questions.push(text);
    if (questions.length >= MAX_LEFT_OPEN_QUESTIONS) break;
  }
  return questions;
}
