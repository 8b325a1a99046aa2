import { stem, terms, withRelations, words } from "../../language";
import type { Found } from "./basis";
import type { TypedEvidence } from "./evidence";
import type { Field } from "./field";

/**
 * Booleans of the typed output come only from the brief's yes or no, stated with evidence, and
 * only in a field that asks the question's own yes/no. Absence of evidence is not `false`: "11
 * speeches mention the Internet" must never become `yes: false` because no sentence said "yes".
 */

/** Words a boolean's name or description may use to say "the answer", beside the question's own. */
const ANSWER_WORDS = new Set(terms("yes no answer answered result verdict true false correct whether flag bool boolean is it"));

/**
 * The field asks the question's yes/no when its words (other than "yes", "answer" ...) are the
 * question's own: "yes", "mentioned" for "Did any president mention ...", not "is_controversial".
 */
function asksTheQuestion(field: Field, evidence: TypedEvidence): boolean {
  const own = field.terms.filter((term) => !ANSWER_WORDS.has(term));
  if (own.length === 0) return true;
  // Its verb too, which is no term of the question's topic: "mentioned" for "Did Kennedy ever mention Vietnam?".
  const question = withRelations([...evidence.query.terms, ...words(evidence.query.question).map(stem)]);
  return own.filter((term) => question.has(term)).length * 2 >= own.length;
}

/** The brief's yes/no for a field that asks it; none otherwise. `medium`: the engine's conclusion from the deciding facts it cites. */
export function booleanCandidates(field: Field, evidence: TypedEvidence): Found[] {
  if (!asksTheQuestion(field, evidence)) return [];
  const said = evidence.yesNo();
  if (!said) return [];
  return [
    { value: said.value, support: said.statement.support.map((item) => ({ source: item.source, passage: item.passage, confidence: "medium" as const })) },
  ];
}
