import { capitalisedEntities, NOT_NAMES } from "../question";
import { DEMONYM_COUNTRY } from "../language";

/**
 * Names as sentences write them: a capitalised run with its initials and particles, told apart
 * from the descriptors and clause words around it. Pure text.
 */

/** A capitalised name: initials, particles and hyphens kept ("S. Sylvan Simon", "Géza von Bolváry", "Jean-Luc Godard"), initialisms whole ("Nashville, U.S."). */
const NAME_WORD = "(?:\\p{Lu}\\.(?:\\p{Lu}\\.)+|[\\p{Lu}][\\p{L}'’\\-]*\\.?)";
const PARTICLE = "(?:de|da|del|della|di|do|dos|du|la|le|von|van|der|den|ter|bin|ibn|al|el|y|of)";
export const NAME = `${NAME_WORD}(?:\\s+(?:${PARTICLE}\\s+)*${NAME_WORD})*`;
const NAME_AT_START = new RegExp(`^${NAME}`, "u");

/** Words that may stand between a cue and the name it introduces ("by American producer Dillon Francis"). */
const DESCRIPTOR = /^(?:the|a|an|his|her|their|its|[a-z][a-z-]*|[\p{Lu}][\p{L}]+(?=\s))$/u;

const TITLE_AFTER_NAME = new RegExp(
  `^,\\s+(?:\\d+(?:st|nd|rd|th)\\s+)?(?:Earl|Duke|Duchess|Baron|Baroness|Count|Countess|Marquess|Viscount|Prince|Princess|Lord|Lady|Archduke|Archduchess|Margrave|Margravine|Elector|Landgrave)\\s+of\\s+${NAME}`,
  "u",
);

/** Lower-case words that may follow a one-word name without making it a descriptor ("by Madonna from her album"). */
const CLAUSE_WORDS = new Set([
  "and",
  "or",
  "from",
  "in",
  "on",
  "at",
  "for",
  "with",
  "who",
  "which",
  "that",
  "as",
  "to",
  "of",
  "is",
  "was",
  "are",
  "were",
  "has",
  "had",
  "under",
  "starring",
  "featuring",
  "by",
  "after",
  "before",
  "during",
  "while",
  "but",
  "also",
  "himself",
  "herself",
  // A work's lead goes on after its maker's one-word name with a participle ("a studio album by Alisa released in 2005").
  "released",
  "recorded",
  "published",
  "issued",
  "produced",
  "directed",
  "written",
  "performed",
]);

/** Words that open a capitalised run but do not start a name of a person or work. */
const NOT_A_NAME_START = new Set([
  "The",
  "A",
  "An",
  "He",
  "She",
  "It",
  "They",
  "His",
  "Her",
  "In",
  "On",
  "At",
  "This",
  "That",
  "After",
  "Before",
  "When",
  "While",
]);

/** Titles that name a role, not a person, after a demonym ("the French General …"). */
const ROLE_TITLES = new Set([
  "President",
  "King",
  "Queen",
  "Emperor",
  "Empress",
  "General",
  "Admiral",
  "Senator",
  "Governor",
  "Chancellor",
  "Minister",
  "Ambassador",
]);

/** Words of an office's name ("Prime Minister", "Metropolitan Mayor", "Right Honourable"): the titles and their qualifiers. */
const ROLE_WORDS = new Set([
  ...[...ROLE_TITLES].map((title) => title.toLowerCase()),
  ..."prime vice deputy acting first mayor premier secretary speaker chief justice leader opposition right honourable honorable metropolitan sir state foreign interior".split(
    " ",
  ),
]);

/** A capitalised span made only of an office's words names the office, not who holds it ("Prime Minister" for "who was in charge"). */
export function namesOfficeOnly(span: string): boolean {
  const spanWords = span
    .toLowerCase()
    .split(/[\s-]+/)
    .filter((word) => word !== "of" && word !== "the");
  return spanWords.length > 0 && spanWords.every((word) => ROLE_WORDS.has(word));
}

/** Courtesies and honorifics before a person's name ("Hon. Winnie Kiiza", "Dr. …"). */
const COURTESY = /^(?:Hon|Honourable|Honorable|Dr|Mr|Mrs|Ms|Rev|Reverend)\.?\s+(?=\p{Lu})/u;

/** How much of a person's name is a courtesy or an office before it ("Hon. Winnie Kiiza", "President Mohamud"): the person is named without it. */
export function titlesBefore(name: string): number {
  const courtesy = COURTESY.exec(name)?.[0].length ?? 0;
  return courtesy + officeBefore(name.slice(courtesy));
}

/** How much of a person's name is the office before it ("President Mohamud", "Premier Omar Sharmarke"): 0 when none, or when the office is all of it. */
export function officeBefore(name: string): number {
  const match = /^(?:[\p{L}]+\s+)+/u.exec(name);
  let length = 0;
  for (const word of (match?.[0] ?? "").split(/(?<=\s)/)) {
    if (!ROLE_WORDS.has(word.trim().toLowerCase())) break;
    length += word.length;
  }
  // What follows must be a name ("Prime Minister of Canada" is an office, "of Canada" no one).
  return length > 0 && /^\p{Lu}/u.test(name.slice(length)) && !namesOfficeOnly(name) ? length : 0;
}

/**
 * The short form a page gives a name in brackets right after it ("the Leader of Opposition
 * (LOP)", "Bigg Boss Kannada 5 (BBK5)"): the capitalised run before the bracket, from its word
 * with the short form's first letter; else null. Short forms do not always spell initials ("LOP").
 */
export function abbreviated(text: string, index: number, span: string): string | null {
  if (!/^\p{Lu}[\p{Lu}\d]{1,5}$/u.test(span) || !/\(\s*$/.test(text.slice(0, index))) return null;
  const before = text
    .slice(0, index)
    .replace(/\s*\(\s*$/, "")
    .split(/\s+/);
  let start = -1;
  for (let at = before.length - 1; at >= 0; at--) {
    const word = before[at]!;
    if (/^\d+$/.test(word) || (/^(?:of|the|and|for)$/.test(word) && at < before.length - 1)) continue;
    if (!/^\p{Lu}/u.test(word)) break;
    if (word[0] === span[0]) start = at;
  }
  return start < 0 ? null : before.slice(start).join(" ");
}

/** Words that make what follows them someone's ("its stars", "his wife"). */
const POSSESSIVES = new Set(["its", "his", "her", "their"]);

/**
 * The name a cue introduces: the first capitalised run within a few descriptor words after it
 * ("by American electronic music producer Dillon Francis" -> "Dillon Francis"); demonyms and
 * lower-case words are descriptors, not the name.
 */
export function nameAfter(text: string): string | null {
  const tokens = text.split(/\s+/).filter(Boolean);
  let skipped = 0;
  let offset = 0;
  let possessive = false;
  while (skipped <= 6 && offset < tokens.length) {
    const rest = tokens.slice(offset).join(" ");
    const token = tokens[offset]!;
    const bare = token.replace(/[,;:.]+$/, "");
    // A demonym is a descriptor ("the Guatemalan President Jacobo Árbenz"), and so is a title right after one.
    const isDemonym =
      NOT_NAMES.has(bare.toLowerCase()) ||
      DEMONYM_COUNTRY[bare.toLowerCase()] !== undefined ||
      (offset > 0 && DEMONYM_COUNTRY[(tokens[offset - 1] ?? "").toLowerCase()] !== undefined && ROLE_TITLES.has(bare));
    // "A." is an initial ("directed by A. Jagannathan"), not the article.
    const initial = /^\p{Lu}\.$/u.test(token);
    if (/^[\p{Lu}]/u.test(token) && !isDemonym && (initial || !NOT_A_NAME_START.has(bare))) {
      const match = NAME_AT_START.exec(rest);
      if (!match) return null;
      // One capitalised word before a lower-case noun is a descriptor ("the Aztec ruler Moctezuma
      // II", "the Luxembourgish entry"), unless that word is a preposition or a verb of the clause.
      const following = tokens[offset + 1] ?? "";
      if (!/\s/.test(match[0]) && !/[,;:.]$/.test(token) && /^[a-z]/.test(following) && !CLAUSE_WORDS.has(following.replace(/[,;:.]+$/, ""))) {
        offset++;
        skipped++;
        continue;
      }
      // "Henry Lascelles, 4th Earl of Harewood": a peer's title after the comma is part of the name.
      const title = TITLE_AFTER_NAME.exec(rest.slice(match[0].length));
      return trimName(title ? match[0] + title[0] : match[0]);
    }
    // An appositive names the one it describes next ("produced by one of its stars, Michael Douglas").
    const appositive = /^[a-z]+,$/.test(token) && possessive && /^\p{Lu}/u.test(tokens[offset + 1] ?? "");
    if (/[,;:.]$/.test(token) && !isDemonym && !appositive) return null; // the clause ended before a name
    if (POSSESSIVES.has(bare)) possessive = true;
    if (!isDemonym && !DESCRIPTOR.test(bare)) return null;
    offset++;
    skipped++;
  }
  return null;
}

/** A trailing initial's period is kept ("Dwight H. Little"), a sentence's is not; dangling particles go. */
export function trimName(name: string): string {
  let out = name.replace(/\s+(?:de|da|del|di|von|van|der|of|y)$/i, "").trim();
  if (/\.$/.test(out) && !/\b\p{Lu}\.$/u.test(out)) out = out.slice(0, -1);
  return out;
}

/** The offices a charge may be held by, each as the names pages give it ("Premier" is a Prime Minister). */
const OFFICES: RegExp[] = [
  /\bPresident\b/,
  /\b(?:Prime\s+Minister|Premier|Chancellor)\b/,
  /\bChief\s+Minister\b/,
  /\bGovernor\b/,
  /\bMayor\b/,
  /\b(?:King|Queen|Emperor|Empress|Sultan|Emir)\b/,
];

/**
 * "Who was in charge of Somalia?" is answered by a page that names one office holding the
 * charge ("Mayor Melih Gökçek", "Chief Minister Prithviraj Chavan"); a page naming the holders of
 * several (Somalia's President and its Prime Ministers) does not say which of them is meant. An
 * office counts where its sentence names someone besides the page's subject ("The Prime Minister
 * of Chad leads the cabinet" names no holder).
 */
export function namesSeveralOfficeHolders(texts: readonly string[], subject: string): boolean {
  const own = new Set(subject.toLowerCase().split(/\s+/));
  // A name of two words or more, not a date, with a word that is neither an office's nor the subject's ("Prime Minister of Chad" is no one).
  const namesSomeone = (text: string) =>
    capitalisedEntities(text, { leadingNumbers: false }).some((entity) => {
      const nameWords = entity.toLowerCase().split(/\s+/);
      return nameWords.length > 1 && !/\d/.test(entity) && nameWords.some((word) => !ROLE_WORDS.has(word) && !own.has(word) && word !== "of" && word !== "the");
    });
  // Each sentence's names are read once, and only in a sentence naming an office.
  const holding = texts.filter((text) => OFFICES.some((office) => office.test(text)) && namesSomeone(text));
  return OFFICES.filter((office) => holding.some((text) => office.test(text))).length > 1;
}
