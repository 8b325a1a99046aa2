import type { EvidenceDoc, Passage } from "../../evidence";
import { fold, terms, words } from "../../language";
import { claimNames, type Missing, missingFromQuotes, QuoteContent } from "./checkable";
import { claimNumbers } from "./numbers";
import { findQuote, normalizeForMatch } from "./quote-span";

/** A quote as the model gives it: the number of the source it is copied from, and the words. */
export interface ModelQuote {
  source: number;
  quote: string;
}

export type ClaimCheck = { ok: true; passages: Passage[] } | { ok: false; reason: string; kind: FailureKind };

/** Why a claim fails, as a kind the eval groups by. */
export type FailureKind =
  | "no_quote"
  | "unknown_source"
  | "quote_not_in_source"
  | "quote_too_short"
  | "number_not_in_quotes"
  | "name_not_in_quotes"
  /** The critic found its quotes do not state all of it. */
  | "critic"
  /** It leans on a sentence that failed ("He then…"). */
  | "dangling";

const shown = (quote: string) => (quote.length > 80 ? `${quote.slice(0, 77)}…` : quote);

/**
 * Checks a model's claims against the numbered sources it was shown: each quote must be a
 * verbatim span of its source's full text (quote-span.ts), and what the claim states that can be
 * checked exactly, its numbers and names, must be in its quotes (checkable.ts). A claim that
 * checks rests on its quotes' spans: they become its citations, with their exact offsets.
 */
export class ClaimChecker {
  private readonly normalized = new Map<number, ReturnType<typeof normalizeForMatch>>();
  private names: Set<string> | null = null;

  constructor(private readonly numbered: EvidenceDoc[]) {}

  check(text: string, quotes: ModelQuote[]): ClaimCheck {
    const found = this.spansOf(quotes);
    if (!found.ok) return found;
    const missing = missingFromQuotes(text, this.contentOf(found.passages), (word) => this.isName(word));
    if (missing.length > 0) return { ok: false, ...missingReason(missing) };
    return found;
  }

  /**
   * The short answer: its quotes verbatim, and every name and number it gives in them (an answer is
   * a span such as "Fujioka, Gunma, Japan", so each capitalised word counts as a name); an answer
   * with neither ("to attend the conclave") needs one of its words there. A yes or no, which says no
   * name itself, needs the question's names in its quotes: the claims that state both sides.
   */
  checkAnswer(text: string, quotes: ModelQuote[], questionNames: string[], claims: Passage[] = []): ClaimCheck {
    const found = this.spansOf(quotes);
    if (!found.ok) return found;
    const content = this.contentOf(found.passages);
    const yesNo = /^(yes|no)\b/i.test(text.trim());
    // A yes or no, or a choice between what the question names ("Tropic Holiday"), stands on the
    // claims that state each side: their quotes with its own hold the question's names.
    const answerNames = claimNames(text, () => true);
    const choice = !yesNo && answerNames.length > 0 && answerNames.every((name) => questionNames.includes(name));
    const sides = yesNo || choice ? this.contentOf([...found.passages, ...claims]) : content;
    const missing =
      yesNo || choice
        ? questionNames.filter((name) => !sides.holdsName(name)).map((name) => ({ kind: "name" as const, text: name }))
        : missingFromQuotes(text, content, () => true);
    if (missing.length > 0) return { ok: false, ...missingReason(missing) };
    const own = terms(text);
    if (!yesNo && claimNames(text, () => true).length === 0 && claimNumbers(text).length === 0 && !own.some((term) => content.holdsName(term)))
      return { ok: false, kind: "name_not_in_quotes", reason: "none of its words is in its quotes: quote where the sources state it" };
    return found;
  }

  /** What a claim's quotes hold, with their sources' titles (see QuoteContent). */
  private contentOf(passages: Passage[]): QuoteContent {
    const titles = [...new Set(passages.map((passage) => this.numbered.find((doc) => doc.index === passage.doc)?.title ?? ""))];
    return new QuoteContent(
      passages.map((passage) => passage.text),
      titles,
    );
  }

  /** Each quote as the span of its source it is, or why one is not. */
  private spansOf(quotes: ModelQuote[]): ClaimCheck {
    if (quotes.length === 0) return { ok: false, kind: "no_quote", reason: "it has no quote: quote the words of a source that state it" };
    const passages: Passage[] = [];
    for (const { source, quote } of quotes) {
      const doc = this.numbered[source - 1];
      if (!doc) return { ok: false, kind: "unknown_source", reason: `source ${source} is not one of the numbered sources` };
      const match = findQuote(this.normalizedOf(doc), quote);
      if (!match.ok) {
        return match.problem === "not_found"
          ? { ok: false, kind: "quote_not_in_source", reason: `the quote "${shown(quote)}" is not in source ${source}: copy it word for word` }
          : { ok: false, kind: "quote_too_short", reason: `the quote "${shown(quote)}" is too short to show the claim: quote at least a clause` };
      }
      for (const span of match.spans) passages.push(passageOf(doc, span.start, span.end));
    }
    return { ok: true, passages };
  }

  /**
   * A word the sources write capitalised inside a sentence and never in lower case: a name, even
   * where a claim's sentence starts with it ("Roncalli left…"). A word they write both ways is a
   * common word some speeches capitalise ("Presidents", "Nineteenth"): not a name at a sentence's start.
   */
  isName(word: string): boolean {
    this.names ??= nameWords(this.numbered.map((doc) => doc.text));
    return this.names.has(word);
  }

  private normalizedOf(doc: EvidenceDoc) {
    let normalized = this.normalized.get(doc.index);
    if (!normalized) {
      normalized = normalizeForMatch(doc.text);
      this.normalized.set(doc.index, normalized);
    }
    return normalized;
  }
}

function missingReason(missing: Missing[]): { kind: FailureKind; reason: string } {
  const listed = missing.map((item) => item.text).join(", ");
  const kind = missing[0]!.kind === "number" ? "number_not_in_quotes" : "name_not_in_quotes";
  return {
    kind,
    reason: `${listed} ${missing.length === 1 ? "is" : "are"} in none of its quotes: quote where the sources state ${missing.length === 1 ? "it" : "them"}, or leave ${missing.length === 1 ? "it" : "them"} out`,
  };
}

/** The span of a page a quote was found at, as a passage (its sentence's position, so a source's summary keeps page order). */
export function passageOf(doc: EvidenceDoc, start: number, end: number): Passage {
  const sentence = doc.passages.find((passage) => passage.start <= start && start < passage.end);
  const text = doc.text.slice(start, end);
  return { doc: doc.index, position: sentence?.position ?? 0, text, terms: terms(text), titleTerms: sentence?.titleTerms ?? terms(doc.title), start, end };
}

/** Words written capitalised after a lower-case word or a comma (names, not sentence openers), less those also written in lower case. */
function nameWords(texts: string[]): Set<string> {
  const names = new Set<string>();
  const lower = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/(?<=[\p{Ll},;]\s+)\p{Lu}[\p{L}'’-]*/gu)) for (const word of words(match[0])) names.add(word);
    for (const match of text.matchAll(/(?<![\p{L}'’-])\p{Ll}[\p{L}'’]*/gu)) lower.add(match[0]);
  }
  for (const word of lower) names.delete(fold(word));
  return names;
}
