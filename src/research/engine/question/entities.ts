import { isAbbreviation, QUESTION_WORDS, STOPWORDS, unique } from "../language";

/**
 * The names a question mentions: capitalised runs ("Laleli Mosque", "Kiss and Tell"), split where
 * a comparison conjoins two ("A and B"), with the words that are capitalised but name nothing to
 * look up (nationalities, openers) set aside.
 */

/** Words that may sit inside a capitalised name ("Kiss and Tell", "Guns N' Roses", "Bank of America"). */
const NAME_JOINERS = new Set(["of", "and", "the", "de", "la", "le", "du", "von", "van", "der", "da", "del", "&", "n", "y", "for"]);

/** Capitalised word sequences, e.g. "Laleli Mosque", "Kiss and Tell", "Robert Erskine Childers". */
export function capitalisedEntities(text: string, options: { leadingNumbers?: boolean } = {}): string[] {
  const leadingNumbers = options.leadingNumbers ?? true;
  const matches = [...text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.\-/]*|&/gu)];
  const found: string[] = [];
  let current: string[] = [];
  let sentenceStart = true;
  const flush = () => {
    while (current.length > 0 && NAME_JOINERS.has(current[current.length - 1]!.toLowerCase())) current.pop();
    if (current.length > 0) found.push(...splitConjoined(current.join(" ").replace(/[.,]+$/, "")));
    current = [];
  };
  for (let index = 0; index < matches.length; index++) {
    const match = matches[index]!;
    const raw = match[0];
    const token = raw.replace(/[.,;:!?]+$/, "");
    const lower = token.toLowerCase();
    // In running text a number opening a name is a date or a count ("1945 American"); in a
    // question it may be part of the name ("888 7th Avenue", "2014 S/S").
    const capitalised = current.length > 0 || leadingNumbers ? /^[\p{Lu}\p{N}]/u.test(token) : /^\p{Lu}/u.test(token);
    // A capitalised question word or stopword opening the question is not a name.
    const isOpener = sentenceStart && (QUESTION_WORDS.has(lower) || STOPWORDS.has(lower) || OPENERS.has(lower));
    const next = matches[index + 1]?.[0] ?? "";
    if (capitalised && !isOpener && !(current.length === 0 && STOPWORDS.has(lower) && lower !== "the")) {
      current.push(token);
    } else if (current.length > 0 && NAME_JOINERS.has(lower) && /^[\p{Lu}\p{N}]/u.test(next)) {
      current.push(token);
    } else {
      flush();
    }
    sentenceStart = false;
    // Punctuation between two words ends a name ("Lawrence, Kansas" is two places).
    const gap = text.slice(match.index + raw.length, matches[index + 1]?.index ?? text.length);
    // "Roger O. Egeberg", "Ken St. Andre": an initial or abbreviation does not end a name.
    const initial = /\.$/.test(raw) && isAbbreviation(raw);
    if (/[,;:()[\]]/.test(gap) || (/[.!?]$/.test(raw) && !initial)) flush();
    if (/[.!?]$/.test(raw) && !initial) sentenceStart = true;
  }
  flush();
  return unique(
    found
      .map((entity) => entity.replace(/^(The|A|An) /, ""))
      .filter((entity) => entity.length > 1 && !/^\d{1,2}$/.test(entity) && !NOT_NAMES.has(entity.toLowerCase())),
  );
}

/** Nationalities and languages: capitalised, but an attribute, not something with a page to look up. */
export const NOT_NAMES = new Set(
  (
    "american english british scottish welsh irish french german italian spanish portuguese canadian australian mexican brazilian " +
    "argentine russian chinese japanese korean indian turkish swedish norwegian danish finnish dutch belgian swiss austrian polish greek " +
    "egyptian israeli arabic latin hebrew persian hindi urdu bengali ottoman roman european african asian christian jewish muslim catholic " +
    "january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday " +
    "he she it they his her its their this these those there however after before during while when where"
  ).split(" "),
);

/** Openers that are capitalised only because they start the question. */
const OPENERS = new Set(["aside", "besides", "apart", "according", "in", "name", "list", "compare", "contrast"]);

/**
 * "Scott Derrickson and Ed Wood" names two people; "Kiss and Tell" is one title. Split on
 * "and" when both sides are names of two or more words.
 */
function splitConjoined(name: string): string[] {
  const parts = name.split(/ (?:and|&) /);
  if (parts.length === 2 && parts.every((part) => part.split(" ").length >= 2)) return parts;
  return [name];
}

/**
 * In a comparison ("Are Ferocactus and Silene both ...", "Were A and B of the same ...") the
 * conjunction joins the two compared subjects even when they are one word each.
 */
export function splitCompared(entities: string[], question: string): string[] {
  if (!/\b(both|same|different|either|neither|compar\w*|similar|differ\w*|contrast\w*|versus|vs)\b/i.test(question)) return entities;
  return entities.flatMap((entity) => {
    const parts = entity.split(/ (?:and|&) /).map((part) => part.trim());
    return parts.length === 2 && parts.every(Boolean) ? parts : [entity];
  });
}
