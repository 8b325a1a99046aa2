import { readSubject } from "./hops";
import type { ChainRelation, HopAttribute, HopRelation } from "./hops";

/**
 * A comparison read as two chains and one fact to compare: "Which film has the director born
 * earlier, A or B?" follows each film to its director and compares their birth dates; "Are A and
 * B located in the same country?" compares the country each page states. Pure text.
 */

/** What is compared: a person's facts, a work's release, or where a place is. */
export type ComparedFact = Extract<HopAttribute, "birth_date" | "death_date" | "nationality"> | "release_date" | "country";

export interface ComparisonPlan {
  /** Each side as the question names it, and the relations followed from it (none: the side itself). */
  sides: { name: string; relations: ChainRelation[] }[];
  fact: ComparedFact;
  /** earliest / latest pick one side (a "which" question); same asks yes or no. */
  pick: "earliest" | "latest" | "same";
}

const RELATION_IN_FRAME = /\b(director|composer|performer|producer|creator|founder|father|mother|husband|wife|spouse)s?\b/i;

function factOf(q: string): { fact: ComparedFact; pick: ComparisonPlan["pick"] } | null {
  if (/\bsame (?:country|nationality)\b|\bnationality\b|\bfrom the same (?:country|place)\b/i.test(q)) {
    return { fact: /\b(?:located|situated|based|in the same country)\b/i.test(q) ? "country" : "nationality", pick: "same" };
  }
  // "older" of a work is its release; of a person (or a work's director) the birth.
  const ofPerson = RELATION_IN_FRAME.test(q.split(",")[0] ?? q) || !/\b(?:film|movie|song|album|book|released|came out)\b[^,]*\bolder\b/i.test(q);
  if (/\b(?:born|birth)\b[^,?]*\b(?:first|earlier|earliest|before)\b/i.test(q) || (/\bolder\b|\boldest\b|\belder\b/i.test(q) && ofPerson)) {
    return { fact: "birth_date", pick: "earliest" };
  }
  if (/\b(?:born|birth)\b[^,?]*\b(?:later|last|latest|after)\b|\byounger\b|\byoungest\b/i.test(q)) return { fact: "birth_date", pick: "latest" };
  if (/\b(?:died|die|death)\b[^,?]*\b(?:first|earlier|earliest|before)\b/i.test(q)) return { fact: "death_date", pick: "earliest" };
  if (/\b(?:died|die|death)\b[^,?]*\b(?:later|last|latest|after)\b/i.test(q)) return { fact: "death_date", pick: "latest" };
  if (
    /\b(?:released|came out|come out|published|premiered|made|founded|established|formed|built|opened|created|started|launched|began|begun|debuted|introduced)\b[^,?]*\b(?:first|earlier|earliest|before)\b|\bolder\b/i.test(
      q,
    )
  )
    return { fact: "release_date", pick: "earliest" };
  if (
    /\b(?:released|came out|come out|published|premiered|made|founded|established|formed|built|opened|created|started|launched|began|begun|debuted|introduced)\b[^,?]*\b(?:later|last|latest|more recently|most recently|after)\b|\bnewer\b|\bmore recent\b/i.test(
      q,
    )
  ) {
    return { fact: "release_date", pick: "latest" };
  }
  return null;
}

/**
 * "Which band was formed first The Exies or Circus Diablo?": a pick written without the comma
 * before its options, read after the comparative that ends the ask; each option a name (capitalised,
 * "the" allowed), so "Which came first the forming of X or the birth of Y" stays open. The match's
 * groups: the ask up to its comparative, then each option.
 */
const UNMARKED_CHOICE =
  /^(?:[Ww]hich|[Ww]ho|[Ww]hat)\b(.*?\b(?:first|earlier|later|last|older|younger|oldest|youngest|larger|bigger|smaller|longer|shorter|taller|higher|lower|more\s+\w+|less\s+\w+))\s+((?:the\s+)?\p{Lu}[^,?]*?)\s+or\s+((?:the\s+)?\p{Lu}[^,?]*?)\s*\??$/u;

/** "Who was born first out of A and B?", "Which is older between A and B?": the options after "out of" or "between", joined by "and". */
const CHOICE_AMONG =
  /^(?:[Ww]hich|[Ww]ho|[Ww]hat)\b(.*?\b(?:first|earlier|later|last|older|younger|oldest|youngest|larger|bigger|smaller|longer|shorter|taller|higher|lower))\s+(?:out\s+of|between|among)\s+((?:the\s+)?\p{Lu}[^,?]*?)\s+(?:and|or)\s+((?:the\s+)?\p{Lu}[^,?]*?)\s*\??$/u;

export function unmarkedChoice(question: string): RegExpExecArray | null {
  return UNMARKED_CHOICE.exec(question) ?? CHOICE_AMONG.exec(question);
}

/** "director of film A", "film A" -> { name: "A", relations: [director] }. */
function side(phrase: string, frameRelation: HopRelation | null): { name: string; relations: ChainRelation[] } {
  const chain = readSubject(phrase.replace(/^(?:the\s+)?/i, "the "));
  if (chain) return { name: chain.anchor, relations: chain.relations };
  const name = phrase.replace(/^(?:the\s+)?(?:films?|movies?|songs?|albums?|books?|bands?)\s+/i, "").trim();
  return { name, relations: frameRelation ? [frameRelation] : [] };
}

export function readComparison(question: string): ComparisonPlan | null {
  const q = question
    .trim()
    .replace(/\s*\?+\s*$/, "")
    .replace(/\s+/g, " ");
  const decided = factOf(q);
  if (!decided) return null;
  // "Which film has the director born earlier, A or B"; "Was A or B born first"
  const choice = /^(?:which|who|what)\b(.*?),\s*(.+?)\s+or\s+(.+)$/i.exec(q) ?? unmarkedChoice(q);
  const askedAsYesNo =
    /^(?:was|were|is|are|did|does)\s+(.+?)\s+or\s+(.+?)\s+(?:born|die|died|released|founded|formed|made|published|established|older|younger)\b/i.exec(q);
  if (!choice && askedAsYesNo && decided.pick !== "same") return { sides: [side(askedAsYesNo[1]!, null), side(askedAsYesNo[2]!, null)], ...decided };
  if (choice && decided.pick !== "same") {
    const relation = RELATION_IN_FRAME.exec(choice[1]!)?.[1]?.toLowerCase();
    const frame = relation ? (relation === "husband" || relation === "wife" ? "spouse" : (relation as HopRelation)) : null;
    return { sides: [side(choice[2]!, frame), side(choice[3]!, frame)], ...decided };
  }
  if (decided.pick !== "same") return null;
  // "Are director of film A and director of film B from the same country", "Do both films A and B have the directors from the same country"
  const frameRelation = RELATION_IN_FRAME.exec(
    q.replace(/^(?:are|were|is|was|do|does|did)\s+(?:both\s+)?(?:the\s+)?(?:directors?|composers?|performers?|producers?)\s+of\b/i, ""),
  )?.[1]?.toLowerCase();
  const pair =
    /^(?:are|were|do|does|did|is|was)\s+(?:both\s+)?(?:(?:the\s+)?(?:films?|movies?|songs?|albums?|villages?|towns?|cities?|places?|rivers?|lakes?|mountains?|airports?|schools?|universities|high schools|magazines?|bands?|people)\s*,?\s+)?(.+?)\s+and\s+(.+?)\s+(?:both\s+)?(?:(?:have|had|share|shared|(?:from|of|in) the same|located|situated|based|come|came)\b.*)$/i.exec(
      q,
    );
  if (!pair) return null;
  const frame =
    frameRelation && !/^(?:the\s+)?directors? of\b/i.test(pair[1]!)
      ? frameRelation === "husband" || frameRelation === "wife"
        ? "spouse"
        : (frameRelation as HopRelation)
      : null;
  const usesFrame = frame && /\b(?:have|had|share|shared)\b[^?]*\b(?:directors?|composers?|performers?|producers?)\b/i.test(q);
  const sides = [side(pair[1]!, usesFrame ? frame : null), side(pair[2]!, usesFrame ? frame : null)];
  // "the directors of films A and B": the relation read on the first side applies to the second.
  if (sides[0]!.relations.length > 0 && sides[1]!.relations.length === 0 && /^(?:the\s+)?(?:\w+\s+)?\w+s\s+of\b/i.test(pair[1]!))
    sides[1]!.relations = [...sides[0]!.relations];
  return { sides, ...decided };
}
