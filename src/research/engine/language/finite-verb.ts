/**
 * Does an English sentence have a finite verb? A brief states things; a fragment a page happened
 * to hold ("The cost of being cast into a concentration camp.", a heading, a caption) states
 * nothing and must not become a finding. No tagger: a few cheap cues that between them catch the
 * verbs of ordinary prose. A cue may fire on a fragment now and then (a noun "will"); what matters
 * is that a sentence without any of them is never quoted as a statement.
 */

/** Auxiliaries and modals: a clause holding one is finite ("can never be", "has divided"). */
const AUXILIARIES = "am is are was were has have had does do did will would shall should can could may might must cannot ought let need";

/** Common irregular past forms: "Congress made ...", "He spoke of ...". */
const IRREGULAR_PAST =
  "said made took gave came became began brought thought found held kept left led met paid sent stood told won wrote grew knew saw " +
  "rose fell spoke chose drew drove built bought caught fought felt heard lost meant ran sat sold taught understood went got forgot " +
  "hid laid lay lent sang sank shot slept spent spread stole struck swore threw wore withdrew undertook overcame sought arose bore " +
  "began broke forbade froze gave overthrew rode rang shook shone slew stuck strove swept tore woke";

const FINITE = new Set(`${AUXILIARIES} ${IRREGULAR_PAST}`.split(/\s+/));

/** Before these, "-ed" and "-s" words are adjectives or nouns ("the increased cost", "of tariffs"). */
const NOUN_CONTEXT = new Set(
  (
    "the a an this that these those our your their his her its my every each no any some such of in on at to for from by with " +
    "into upon under over about against between through without being been be having"
  ).split(" "),
);

/** "-ed" words that are not verbs. */
const NOT_VERBS_ED = new Set(
  "hundred indeed sacred kindred hatred naked wicked wretched beloved rugged ragged crooked learned aged need deed seed speed creed greed steed shed".split(
    " ",
  ),
);

/** After a subject pronoun these may stand before its verb ("we therefore recommend", "it is"). */
const ADVERBS = new Set("also therefore now still then only never always thus accordingly again already hereby further not".split(" "));

/** Auxiliaries that are nouns too ("the will of the people", "the need for"). */
const NOUN_TOO = new Set(["will", "can", "may", "need"]);

/** Before those, these make them nouns. */
const ARTICLES = new Set("the a an our your their his her its my of good ill popular free".split(" "));

/** Subject pronouns: the word after one (past adverbs) is its verb ("We need", "I recommend", "They want"). */
const SUBJECTS = new Set("i we you they he she".split(" "));

/** After a present-tense "-s" verb: its object or complement ("requires that", "needs the", "seems to"). */
const AFTER_S_VERB = new Set(
  "the a an that to our its their his her this these those no not every us them him me it upon also only more in on for over with into from as at".split(" "),
);

/** Demonstratives stand as subjects too: "This means more ...", "These include the ...". */
const DEMONSTRATIVES = new Set("this that these those".split(" "));

/** After a plural subject's verb: its object or complement ("families share their homes", "jobs depend on it"). */
const AFTER_PLURAL_VERB = new Set("the a an our its their his her this that these those to no every all us them it on upon in from with for".split(" "));

/** Words after which "it" opens a clause. */
const CLAUSE_OPENERS = new Set("and but so because that as if when while since although though yet whether".split(" "));

/** Words that are never a verb right after a subject pronoun. */
const NOT_AFTER_SUBJECT = new Set("and or but of in on at to for from by with as the a an that which who".split(" "));

/** Contractions carry a finite verb: "it's", "we're", "don't", "I'll". */
const CONTRACTION = /(?:n['’]t|['’](?:re|ve|ll|d|m|s))$/;

interface Token {
  word: string;
  /** As written: capitals tell a name ("United States") from a verb ("united"). */
  raw: string;
}

type Cue = (tokens: Token[], index: number) => boolean;

const lowerCase = (token: Token | undefined) => token !== undefined && /^\p{Ll}/u.test(token.raw);

/** An auxiliary, a modal or an irregular past; "the will of the people" is a noun. */
const auxiliary: Cue = (tokens, index) => {
  const { word } = tokens[index]!;
  const before = tokens[index - 1]?.word;
  return FINITE.has(word) && !(before && ARTICLES.has(before) && NOUN_TOO.has(word));
};

/** "it's", "we're", "don't"; "Lincoln's" is a possessive. */
const contraction: Cue = (tokens, index) => {
  const { word } = tokens[index]!;
  return CONTRACTION.test(word) && (/n['’]t$/.test(word) || /^(?:it|he|she|that|there|here|what|who|we|they|you|i|let)['’]/.test(word));
};

/** A past tense: "Congress passed the act"; not "the increased cost", "being cast", "United". */
const pastTense: Cue = (tokens, index) => {
  const { word } = tokens[index]!;
  const before = tokens[index - 1]?.word;
  return word.length > 3 && word.endsWith("ed") && !NOT_VERBS_ED.has(word) && lowerCase(tokens[index]) && !(before && NOUN_CONTEXT.has(before));
};

/** A subject pronoun and the word after it (past adverbs): "We need", "I therefore recommend", "It appears". */
const afterSubject: Cue = (tokens, index) => {
  const { word } = tokens[index]!;
  const before = tokens[index - 1]?.word;
  // "it" opening a clause is its subject; in "make it possible" it is not.
  if (!SUBJECTS.has(word) && !(word === "it" && (before === undefined || CLAUSE_OPENERS.has(before)))) return false;
  let next = index + 1;
  while (next < tokens.length && (ADVERBS.has(tokens[next]!.word) || tokens[next]!.word.endsWith("ly"))) next++;
  return lowerCase(tokens[next]) && !NOT_AFTER_SUBJECT.has(tokens[next]!.word);
};

/** A present tense in "-s" before its object: "the law requires that", "This means more". */
const presentS: Cue = (tokens, index) => {
  const { word } = tokens[index]!;
  const before = tokens[index - 1]?.word;
  const after = tokens[index + 1]?.word;
  return (
    word.length > 3 &&
    /[^su'’]s$/.test(word) &&
    !/(?:ss|us|is|ous)$/.test(word) &&
    after !== undefined &&
    AFTER_S_VERB.has(after) &&
    before !== undefined &&
    (!NOUN_CONTEXT.has(before) || DEMONSTRATIVES.has(before))
  );
};

/** A plural subject's present tense: "Americans build the future", "jobs depend on it". */
const pluralPresent: Cue = (tokens, index) => {
  const { word } = tokens[index]!;
  const before = tokens[index - 1]?.word;
  const after = tokens[index + 1]?.word;
  return (
    before !== undefined &&
    /[^s'’]s$/.test(before) &&
    !NOUN_CONTEXT.has(before) &&
    lowerCase(tokens[index]) &&
    !NOUN_CONTEXT.has(word) &&
    !NOT_AFTER_SUBJECT.has(word) &&
    after !== undefined &&
    AFTER_PLURAL_VERB.has(after)
  );
};

const CUES: Cue[] = [auxiliary, contraction, pastTense, afterSubject, presentS, pluralPresent];

export function hasFiniteVerb(sentence: string): boolean {
  // Numbers are tokens too: in "The tariff of 1842 taxed the many" the year, not "of", stands before the verb.
  const tokens = [...sentence.matchAll(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu)].map((match) => ({ word: match[0].toLowerCase(), raw: match[0] }));
  return tokens.some((_, index) => CUES.some((cue) => cue(tokens, index)));
}
