import { type Evidence, type Passage, pageSaysWords, type RankedDoc } from "../evidence";
import type { HopAttribute, QueryAnalysis } from "../question";
import { stem, withRelations, words } from "../language";
import { statedAttribute } from "./facts";
import { COUNTRIES } from "./places";

/**
 * What the general path's span saw, beyond its score: the signals answer/features.ts turns into
 * the calibrated model's inputs (the birth or death asked, a backdrop name, the asked words next
 * to the span). Pure functions of the question, the span and its sentence.
 */

/** The fact a question asks when it asks a birth or death (of someone the question describes, not names). */
export function askedFact(question: string): HopAttribute | null {
  const born = /\bborn\b|\bbirth/i.test(question);
  const died = /\b(?:die|died|death)\b/i.test(question);
  if (born === died) return null;
  const where =
    /^\s*(?:in |at )?(?:where|which|what)\b(?:\s+\w+)?\s+(?:city|town|village|country|state|place|island|suburb|county)\b|\bwhere\b|\bin (?:which|what) (?:city|town|village|country|state|place)\b|\b(?:place|city|town) of (?:birth|death)\b/i.test(
      question,
    );
  const when = /\bwhen\b|\b(?:what|which) (?:year|date|day)\b|\bdate of (?:birth|death)\b|\b(?:birth|death) ?date\b|\bbirthday\b/i.test(question);
  if (where === when) return null;
  if (born) return where ? "birth_place" : "birth_date";
  return where ? "death_place" : "death_date";
}

/**
 * A name that is the backdrop of what was read rather than its answer: a country where the
 * question does not ask for one ("United States" for "Who was president when ..."), or a name
 * three or more of the pages read mention ("Pacific", "Premier League"). Dates and numbers are
 * never backdrop.
 */
export function isBackdrop(query: QueryAnalysis, span: string, evidence: Evidence): boolean {
  if (query.expects === "date" || query.expects === "year" || query.expects === "number") return false;
  const asksCountry = /\b(?:country|nation|nationality)\b/i.test(query.question);
  if (!asksCountry && (COUNTRIES.includes(span) || /^(?:U\.?S\.?A?|UK|United States of America)$/.test(span))) return true;
  const key = words(span).join(" ");
  const mentioning = evidence.docs.filter((doc) => pageSaysWords(doc, key)).length;
  return mentioning >= 3;
}

/** Words between the answer and the nearest word of what is asked, for the answer to count as stated with it. */
const STATED_WITHIN = 5;

/**
 * How a span of the general path is stated: whether its sentence says what is asked right next to
 * it (the asked relation or attribute within a few words, or life dates in brackets), and whether
 * it speaks of its page's subject.
 */
export function spanStatement(query: QueryAnalysis, span: string, passage: Passage, page: RankedDoc): { near: boolean; onSubject: boolean } {
  const asked = withRelations(query.focusTerms.filter((term) => !query.linkTerms.includes(term)));
  const onSubject = passage.position === 0 || /^(?:He|She|It|They|His|Her|Its|Their)\b/.test(passage.text) || page.via !== undefined;
  if (asked.size === 0) return { near: false, onSubject };
  const nearWord = askedWordNear(passage.text, span, asked);
  if (nearWord === null) return { near: false, onSubject };
  // Life dates in brackets state birth and death though no word says so ("Tomas Arnsby (March 3, 1702 – ...)").
  const lifeDate = (["birth_date", "death_date"] as const).some(
    (attribute) => asked.has(stem(attribute.split("_")[0]!)) && statedAttribute(passage.text, attribute)?.value === span,
  );
  return { near: lifeDate || nearWord, onSubject };
}

/** Whether a word of what is asked (stems) stands within STATED_WITHIN words of the span in a sentence; null when the sentence does not hold the span. */
export function askedWordNear(text: string, span: string, asked: ReadonlySet<string>): boolean | null {
  const tokens = words(text);
  const spanWords = words(span);
  const at = tokens.findIndex((_, index) => spanWords.every((word, offset) => tokens[index + offset] === word));
  if (at < 0) return null;
  return tokens.some((token, index) => asked.has(stem(token)) && (index < at ? at - index : index - (at + spanWords.length - 1)) <= STATED_WITHIN);
}
