import { type ComparisonPlan, readComparison, unmarkedChoice } from "./comparison";
import { inChoiceForm } from "./choice-form";
import { type HopChain, readHopChain } from "./hops";
import { type EmbeddedDescription, readEmbeddedDescription } from "./descriptions";
import { type AnswerType, answerType, askedNounOf } from "./answer-type";
import { capitalisedEntities, splitCompared } from "./entities";
import { SAID_WHEN, SAID_YEAR } from "./said-when";
import { decodeEntities, QUESTION_WORDS, STOPWORDS, stem, terms, unique, words } from "../language";

/**
 * What a question asks about: its content terms, quoted phrases, capitalised entities, and
 * its shape (a yes/no comparison, a choice between two named options, or an open question),
 * which decides how the brief opens.
 */
export interface QueryAnalysis {
  question: string;
  /** Stemmed content terms, without stopwords and question words. */
  terms: string[];
  phrases: string[];
  entities: string[];
  kind: "yes_no" | "choice" | "open";
  /** For "choice": the two named options ("Who is older, A or B?"). */
  options: string[];
  /** Terms that say what is asked about the entities ("nationality", "opera composers"). */
  focusTerms: string[];
  /**
   * Terms that name who speaks rather than what about, in "how did presidents describe
   * tariffs": they count for less when ranking passages.
   */
  speakerTerms: string[];
  /** A period the question is restricted to ("in the 19th century", "in the 1890s"), inclusive years. */
  period: { from: number; to: number } | null;
  /** What kind of answer the question wants, from its wh-phrase ("where" a place, "what year" a year). */
  expects: AnswerType;
  /**
   * Relation nouns that point at a bridge, not at the answer: "director" in "where did the
   * director of X die" names who to look up; the answer is where that person died.
   */
  linkTerms: string[];
  /** Terms of the noun the wh-phrase asks for ("what science fantasy series" -> science, fantasy, series). */
  askedNoun: string[];
  /** Stance words of the question ("against", "support", "before"): findings must not contradict them lexically. */
  stance: Stance | null;
  /** The question read as a chain of hops ("the director of film X" -> its birthplace), when it has that shape. */
  hops: HopChain | null;
  /** An entity the question only describes, inside an open question ("the waterfall in the country where X is found"), when it has one. */
  description: EmbeddedDescription | null;
  /** A comparison read as two sides and the fact compared ("Which film has the director born earlier, A or B?"), when it has that shape. */
  comparison: ComparisonPlan | null;
}

/** "Which presidents argued for free silver?": for; "... opposed ...": against. */
export interface Stance {
  /** Words a finding should carry (stems). */
  wanted: string[];
  /** Words of the opposite stance (stems): a finding led by them is not what was asked. */
  opposite: string[];
}

/**
 * "19th century", "the 1890s", "between 1850 and 1900": a period is a constraint on the sources,
 * not words to match (sentences saying "the 19th of August" are not about the 1800s).
 */
export function questionPeriod(question: string): { period: { from: number; to: number } | null; rest: string } {
  const century = /\b(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)[\s-]+century\b/i.exec(question);
  if (century) {
    const n = Number(century[1]);
    return { period: { from: (n - 1) * 100 + 1, to: n * 100 }, rest: question.replace(century[0], " ") };
  }
  const decade = /\b(?:the\s+)?(1\d|20)(\d)0s\b/.exec(question);
  if (decade) {
    const from = Number(`${decade[1]}${decade[2]}0`);
    return { period: { from, to: from + 9 }, rest: question.replace(decade[0], " ") };
  }
  const between = /\bbetween\s+(1\d{3}|20\d{2})\s+and\s+(1\d{3}|20\d{2})\b/i.exec(question);
  if (between) return { period: { from: Number(between[1]), to: Number(between[2]) }, rest: question.replace(between[0], " ") };
  // "What did Nixon say about Vietnam in 1970?" (or "in his 2010 address", "during the 1862 State of
  // the Union message"): the year is when it was said, not a word of the topic (no sentence of the
  // 1970 address says "1970"). Only where the question asks what someone said about something:
  // elsewhere a year is a fact to match ("the film released in 1970", "What did Tolkien write in 1937?").
  const year = SAID_YEAR.exec(question);
  if (year && SAID_ABOUT.test(question)) return { period: { from: Number(year[1]), to: Number(year[1]) }, rest: question.replace(year[0], " ") };
  return { period: null, rest: question };
}

/** Initials written with full stops are the same initials: "F.D.R." is FDR, "L.B.J." LBJ. */
function undottedInitials(entity: string): string {
  return /^(?:\p{Lu}\.){2,3}\p{Lu}?\.?(?:['’]s)?$/u.test(entity) ? entity.replace(/\./g, "") : entity;
}

/** "What did X say about Y" (the year may stand before "about": "say in 1862 about", "say in his 2015 State of the Union about"). */
const SAID_ABOUT = new RegExp(
  String.raw`^\s*(?:how|what)\s+(?:did|do|does|have|has|had|would)\b.*?\b(?:say|talk|think|write|speak|feel)\s+(?:${SAID_WHEN}\s+)?(?:about|of|on|regarding|concerning)\b`,
  "i",
);

const YES_NO_START = /^(is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b/i;

/** "How did X describe Y", "What did X say about Y": X is the speaker, Y the topic. */
const FRAMING =
  /^\s*(?:how|what)\s+(?:did|do|does|have|has|had|would)\b.*?\b(?:describe|view|see|discuss|explain|characteri[sz]e|say|talk|think|write|speak|feel|portray)\b|^\s*which\s+(?:presidents|speakers|leaders|politicians)\s+(?:talked|spoke|said|mentioned|discussed|addressed|described|wrote)\b/i;

/**
 * "the director of", "the wife of", "X's husband": relation nouns that lead to another entity.
 * Right after "who is" / "what was" the relation is what is asked ("Who is the spouse of ..."),
 * not a link.
 */
function linkTermsOf(question: string): string[] {
  const out: string[] = [];
  // Lower-case nouns only: "The Lord of the Rings" and "Hell's Kitchen" are names, not relations
  // (a capitalised modifier may come first: "the Queen member who wrote ...").
  for (const match of question.matchAll(/\b[Tt]he\s+(?:[\p{L}.-]+\s+)?([a-z-]+)\s+(of|who|that|whose|where)\b/gu)) {
    // So is "the headquarters of" after "In which prefecture is", but in "In which city was the
    // player who scored ..." the player is a link.
    const head = question.slice(0, match.index);
    if (/^\s*(?:(?:in|at|on|from)\s+)?(?:who|what|which|where|when)\s+(?:is|was|are|were)\s*$/i.test(head)) continue;
    if (match[2] === "of" && /^\s*(?:(?:in|at|on|from)\s+)?(?:what|which)(?:\s+[\w-]+){1,3}\s+(?:is|was|are|were)\s*$/i.test(head)) continue;
    out.push(match[1]!);
    // The verb of the relative clause leads to the entity too: "the actor who played X",
    // "the player who scored twice in Y" (an adverb may come first: "who financially supported").
    if (match[2] === "who" || match[2] === "that") {
      const verb = /^\s+(?:[a-z]+ly\s+)?(?:(?:is|was|were|has|had)\s+)?([a-z-]{3,})\b/.exec(question.slice((match.index ?? 0) + match[0].length));
      if (verb && !STOPWORDS.has(verb[1]!)) out.push(verb[1]!);
    }
  }
  for (const match of question.matchAll(/['’]s\s+([a-z-]+)\b/g)) out.push(match[1]!);
  // "the person after whom the city is named": the naming leads to the person.
  for (const match of question.matchAll(/\b([a-z-]+)\s+(?:after|for)\s+wh(?:om|ich)\b[^?]*?\b(named|called)\b/g)) out.push(match[1]!, match[2]!);
  return unique(terms(out.join(" ")));
}

const STANCES: [string, string][] = [
  [
    "for support supported supporting favor favour favored advocate advocated argued praised pro endorse",
    "against oppose opposed opposing opposition reject rejected criticized criticised condemned denounced anti",
  ],
  ["before earlier prior", "after later since"],
  ["more increase increased higher larger greater", "less fewer decrease decreased lower smaller"],
];

/** Stance words the question uses, and their opposites. */
function questionStance(question: string): Stance | null {
  const asked = new Set(words(question));
  for (const [a, b] of STANCES) {
    const sideA = a.split(" ");
    const sideB = b.split(" ");
    const inA = sideA.some((word) => asked.has(word));
    const inB = sideB.some((word) => asked.has(word));
    if (inA === inB) continue;
    const [wanted, opposite] = inA ? [sideA, sideB] : [sideB, sideA];
    return { wanted: unique(wanted.map(stem)), opposite: unique(opposite.map(stem)) };
  }
  return null;
}

export function quotedPhrases(text: string): string[] {
  return unique([...text.matchAll(/["“]([^"”]{2,120})["”]/g)].map((match) => match[1]!.trim()).filter(Boolean));
}

function contentTerms(text: string): string[] {
  return unique(terms(text).filter((term) => !QUESTION_WORDS.has(term)));
}

/**
 * A follow-up is often asked as the next turn of a conversation ("And what did Roosevelt say?",
 * "But who signed it?"): the opening conjunction is not part of the question, and left in it hid
 * the question word ("And what did X say" was read as asking for a name, not an account).
 */
const CONVERSATIONAL_OPENING =
  /^(?:and|but|so|also|then|now|okay|ok)[,\s]+(?=(?:what|who|whom|whose|when|where|which|why|how|did|does|do|is|are|was|were|can|could|should|would|will|has|have|had|in|on|at|during)\b)/i;

export function analyzeQuestion(raw: string): QueryAnalysis {
  const asked = decodeEntities(raw).replace(/\s+/g, " ").trim();
  const question = CONVERSATIONAL_OPENING.test(asked) ? asked.replace(CONVERSATIONAL_OPENING, "").replace(/^\p{Ll}/u, (first) => first.toUpperCase()) : asked;
  const phrases = quotedPhrases(question);
  const { period, rest } = questionPeriod(question);
  const named = splitCompared(capitalisedEntities(rest.replace(/["“”]/g, " , ")), question);
  const entities = unique([...phrases, ...named.map(undottedInitials)])
    .filter(
      // A bare number or ordinal ("1990", "19th") is a constraint, not a name to look up.
      (entity) => !/^\d+(?:st|nd|rd|th|s)?$/i.test(entity),
    )
    .filter(
      // A phrase already inside a longer entity adds nothing.
      (entity, _, all) => !all.some((other) => other !== entity && other.includes(entity) && !phrases.includes(entity)),
    );
  const allTerms = contentTerms(rest);
  // Initials as the question writes them too: "F.D.R." is no three words of the topic.
  const dotted = named.filter((entity) => undottedInitials(entity) !== entity);
  const entityTerms = new Set([...entities, ...dotted].flatMap((entity) => words(entity).map(stem)));
  const focusTerms = allTerms.filter((term) => !entityTerms.has(term));

  let kind: QueryAnalysis["kind"] = "open";
  let options: string[] = [];
  // The options of a pick as the comma form writes them ("Who was born first? A or B?" too).
  const choiceText = inChoiceForm(question).trim();
  const marked = /,\s*([^,?]+?)\s+or\s+([^,?]+?)\s*\??$/i.exec(choiceText);
  const unmarked = marked ? null : unmarkedChoice(choiceText);
  const choice = marked ? [marked[1]!, marked[2]!] : unmarked ? [unmarked[2]!, unmarked[3]!] : null;
  if (choice && /^(who|which|what)\b/i.test(choiceText)) {
    kind = "choice";
    options = choice.map((option) => option.trim());
  } else if (YES_NO_START.test(question.trim())) {
    kind = "yes_no";
  }
  const framing = FRAMING.exec(rest);
  const speakerTerms = framing ? contentTerms(framing[0]).filter((term) => !entityTerms.has(term)) : [];
  const expects = answerType(question, kind);
  const comparison = readComparison(choiceText);
  return {
    question,
    terms: allTerms,
    phrases,
    entities,
    kind,
    options,
    focusTerms,
    speakerTerms,
    period,
    expects,
    linkTerms: linkTermsOf(question),
    askedNoun: askedNounOf(question),
    stance: questionStance(rest),
    hops: readHopChain(question),
    // A description is of an open question's entity; a comparison or a pick reads its sides itself.
    description: kind === "open" && !comparison ? readEmbeddedDescription(question) : null,
    comparison,
  };
}
