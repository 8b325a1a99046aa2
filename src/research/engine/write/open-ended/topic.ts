import type { Passage } from "../../evidence";
import { type QueryAnalysis, questionTopic } from "../../question";
import { holdsCompound, phraseCompounds, SAME_SENSE, STOPWORDS, stem, words } from "../../language";
import { measureKind } from "../../evidence/named-kind";

/** What a statement must be about to belong in an open-ended question's brief. */
export interface OpenEndedTopic {
  /** The topic's terms (stems). */
  terms: Set<string>;
  /** Its compounds, "civil right", "federal government": adjacent terms of the topic phrase. */
  compounds: Set<string>;
  /** Terms a sentence must hold (without a compound): two of a phrase of several, one of a question's terms when it has no topic phrase. */
  needed: number;
  /**
   * Topics the phrase joins with "and" or "or" ("tariffs and the railroads", "the Soviet Union and
   * nuclear weapons"), each its own topic: a sentence is about the whole when it is about one of them.
   */
  parts?: OpenEndedTopic[];
  /** Ways of saying the whole topic, one of which a sentence must hold ("Louisiana" with "cession", "acquisition", "purchase", …). */
  sayings?: OpenEndedTopic[];
  /** Compounds that say the whole topic in other words: "big government", "smaller government" for "the size of government". */
  sizedAs?: Set<string>;
  /** Terms asked in a plural whose singular means something else ("trusts", not "a sacred trust"): said in the plural only. */
  pluralOnly?: Set<string>;
  /** The topic is a name ("the Great Society", "the Peace Corps"): said only as its compound, never its words apart. */
  named?: boolean;
}

/**
 * Nouns whose plural names what the singular mostly does not: "the trusts" are combinations of
 * companies, "a sacred trust" or "I trust that" are not. Asked in the plural, they count in the
 * plural, or after "anti" ("the anti-trust law").
 */
const PLURAL_SENSE = new Set(["trusts"]);

/** Words of a comparison that say it compares, not what about. */
const COMPARING = /^(?:differ\w*|difference\w*|compar\w*|contrast\w*|versus|vs|disagree\w*|similar\w*|alike|view\w*|position\w*)$/;

/** "the size of X": a size asked of something is said by its size ("big government", "a smaller, less bureaucratic Government"). */
const SIZE_OF = /\bsize\s+of\s+(?:the\s+|our\s+|a\s+)?((?:[\p{L}-]+\s+)?[\p{L}-]+)/iu;
const SIZE = stem("size");
const SIZES = "big bigger biggest small smaller smallest large larger largest".split(" ");

/**
 * Nouns that only say what kind of thing a topic is: "the space program" is spoken of as "a great
 * new effort in outer space", "tariff policy" as the tariff. After another content word they are
 * not needed, though said with it ("space program") the pair still counts.
 */
const GENERIC_HEAD = new Set("program programs policy policies issue issues question problem problems".split(" ").map(stem));

/** A phrase without a generic head after its other content words ("the space program" → "the space"). */
function withoutGenericHead(phrase: string, keep: (term: string) => boolean): string {
  const match = /^(.*\S)\s+(\S+)$/.exec(phrase.trim());
  if (!match || !GENERIC_HEAD.has(stem(match[2]!.toLowerCase()))) return phrase;
  return words(match[1]!).some((word) => !STOPWORDS.has(word) && keep(stem(word))) ? match[1]! : phrase;
}

/** Before a verb: "I trust that …" uses "trust" as a verb, not the trusts a question asks about. */
const BEFORE_VERB = new Set("i we you they he she who to not will would shall should can could may might must do does did".split(" "));
/** Before a word used for a stretch of time, not the thing: "the short space of 10 years" is not about space. */
const BEFORE_A_SPAN = new Set("short brief".split(" "));

/**
 * The topic's terms ("tariffs", "the role of the federal government"), else the question's
 * terms ("Why did South Carolina oppose the Tariff of 1828 …"); never the speakers ("presidents"), the asked subjects or the comparing words, which any
 * sentence of their pages would match.
 */
export function openEndedTopic(query: QueryAnalysis, subjects: string[]): OpenEndedTopic {
  const phrase = questionTopic(query.question, subjects[subjects.length - 1]);
  // A measure named for someone ("the McKinley Tariff") is spoken of by its kind in its own time
  // ("the tariff act"): the topic is the kind, and a sentence naming only the person is not on it.
  const measures = query.entities.flatMap((entity) => measureKind(entity) ?? []);
  // One said by what was done with its place ("the Louisiana Purchase": "the acquisition of
  // Louisiana") is about the place with one of those words.
  const placed = measures.find((measure) => measure.saidAs);
  if (placed?.saidAs)
    return {
      terms: new Set([...placed.namedFor, ...placed.saidAs]),
      compounds: new Set(),
      needed: placed.namedFor.length + 1,
      sayings: placed.saidAs.map((word) => ({ terms: new Set([...placed.namedFor, word]), compounds: new Set<string>(), needed: placed.namedFor.length + 1 })),
    };
  const namedFor = measures.flatMap((measure) => measure.namedFor);
  const excluded = new Set([...query.speakerTerms, ...subjects.flatMap((subject) => words(subject).map(stem)), ...namedFor]);
  const keep = (term: string) => !excluded.has(term) && !COMPARING.test(term);
  const topic = phraseTopic(query, phrase, keep);
  if (!phrase) return topic;
  const conjuncts = phrase.split(/\s+(?:and|or)\s+/i).filter((part) => words(part).some((word) => !STOPWORDS.has(word) && keep(stem(word))));
  if (conjuncts.length < 2) return topic;
  return { ...topic, parts: conjuncts.map((part) => phraseTopic(query, part, keep)) };
}

/** The topic one phrase names: its terms, its compounds, and how many terms a sentence must hold. */
function phraseTopic(query: QueryAnalysis, asked: string | null, keep: (term: string) => boolean): OpenEndedTopic {
  const phrase = asked && withoutGenericHead(asked, keep);
  // Adjacent content words of the phrase, with no stopword between: "federal government", not "role … federal".
  const compounds = phrase ? phraseCompounds(words(phrase), keep) : new Set<string>();
  const candidates = phrase
    ? words(phrase)
        .filter((word) => !STOPWORDS.has(word))
        .map(stem)
    : query.terms;
  const terms = new Set(candidates.filter(keep));
  if (terms.size === 0) return { terms: new Set(query.terms), compounds, needed: 1 };
  const plurals = phrase ? words(phrase).filter((word) => PLURAL_SENSE.has(word)) : [];
  const sized = phrase ? SIZE_OF.exec(phrase) : null;
  const head = sized
    ? words(sized[1]!)
        .filter((word) => !STOPWORDS.has(word))
        .pop()
    : undefined;
  return {
    terms,
    compounds,
    needed: phrase ? Math.min(2, terms.size) : 1,
    ...(phrase && isName(phrase, keep) && compounds.size > 0 ? { named: true } : {}),
    ...(head ? { sizedAs: new Set(SIZES.map((size) => `${stem(size)} ${stem(head)}`)) } : {}),
    ...(plurals.length > 0 ? { pluralOnly: new Set(plurals.map(stem)) } : {}),
  };
}

/** A phrase whose every content word is capitalised, of two words or more: a name ("the Great Society", "New Deal"). */
function isName(phrase: string, keep: (term: string) => boolean): boolean {
  const content = phrase.split(/\s+/).filter((word) => {
    const bare = word.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
    return bare !== "" && !STOPWORDS.has(bare.toLowerCase()) && keep(stem(bare.toLowerCase()));
  });
  return content.length >= 2 && content.every((word) => /^[^\p{L}]*\p{Lu}/u.test(word));
}

/**
 * A sentence is about the topic when it holds one of its compounds, or its one term, or two of
 * its terms when it has several that are not one compound ("our role as peacemakers" is not about "the role of the
 * federal government"). A term used as a verb ("I trust that") does not count.
 */
export function aboutTopic(passage: Passage, topic: OpenEndedTopic): boolean {
  if (topic.parts) return topic.parts.some((part) => aboutTopic(passage, part));
  if (topic.sayings) return topic.sayings.some((saying) => aboutTopic(passage, saying));
  const tokens = words(passage.text);
  // Where each of the topic's terms stands (its keys: the terms found).
  const found = new Map<string, number[]>();
  tokens.forEach((word, index) => {
    if (STOPWORDS.has(word)) return;
    const own = stem(word);
    // "expenditures" says "spending" (language/relations.ts SAME_SENSE).
    const term = topic.terms.has(own) ? own : (SAME_SENSE.find((group) => group.includes(own))?.find((other) => topic.terms.has(other)) ?? own);
    const before = tokens[index - 1] ?? "";
    const otherSense = topic.pluralOnly?.has(term) && !PLURAL_SENSE.has(word) && before !== "anti";
    if (topic.terms.has(term) && !BEFORE_VERB.has(before) && !BEFORE_A_SPAN.has(before) && !otherSense) found.set(term, [...(found.get(term) ?? []), index]);
  });
  // A size asked of something is about its size: "a freeze in Federal Government salaries" is not on "the size of the federal government".
  if (topic.sizedAs) return holdsCompound(tokens, topic.sizedAs) || (found.has(SIZE) && found.size >= topic.needed);
  if (holdsCompound(tokens, topic.compounds)) return true;
  // A topic that is one compound ("civil rights", "military-industrial complex") is said only as
  // that compound: "a complex industrial economy" is not about it. A compound of two words may
  // also be said with them close together, in either order: "the relief of suffering caused by
  // unemployment" is on "unemployment relief".
  // A name ("the Great Society") is said whole: "a great education … an inclusive society" is not it.
  if (topic.named) return false;
  if (topic.compounds.size > 0 && topic.compounds.size >= topic.terms.size - 1) return topic.terms.size === 2 && bothNear(found);
  return found.size >= topic.needed;
}

/** Words apart at most for a two-word compound said loosely. */
const NEAR = 6;

/** Whether the two terms found stand within NEAR words of each other. */
function bothNear(at: Map<string, number[]>): boolean {
  const [first, second] = [...at.values()];
  return first !== undefined && second !== undefined && first.some((a) => second.some((b) => Math.abs(a - b) <= NEAR));
}
