import { words } from "../language";

/**
 * Who speaks in a page and when, read from its title: "Benjamin Harrison: State of the Union
 * address, 1892" is Harrison speaking in 1892. An open question ("How did presidents talk about
 * tariffs?") is answered by who said what when; the title is where a speech says both.
 */
export interface Attribution {
  /** The person whose words the page holds, when its title says so. */
  speaker: string | null;
  /** The year the title names (the last one, as in "…, 1892"), else the year the page says it was published. */
  year: number | null;
  /** The year is the page's date of publication, not its title's. */
  published?: true;
}

/** Kinds of page whose text is its speaker's own words. */
const OWN_WORDS =
  /\b(address|speech|remarks|message|letter|statement|interview|testimony|lecture|sermon|proclamation|inaugural|debate|memoir|diary|essay|op-ed|column)\b/i;

/** "Name: what it is": two to five capitalised words (initials and "Mc" allowed), no digits. */
const NAMED_BEFORE_COLON = /^((?:[\p{Lu}][\p{L}'’.-]*\s+){1,4}[\p{Lu}][\p{L}'’.-]*)\s*:\s*(.+)$/u;

/** "1863 address (Abraham Lincoln)": the speaker in brackets after what the page is. */
const NAMED_IN_BRACKETS = /^(.+?)\s*\(((?:[\p{Lu}][\p{L}'’.-]*\s+){1,4}[\p{Lu}][\p{L}'’.-]*)\)\s*$/u;

/**
 * `publishedAt`, the page's own date (issue 42), dates a page that is no one's own words when its
 * title names no year: a news story or a post is of when it was published. A speech's page is
 * not: an archive publishes a speech of 1892 in 2015.
 */
export function pageAttribution(title: string, publishedAt?: string): Attribution {
  const years = [...title.matchAll(/\b(1\d{3}|20\d{2})\b/g)].map((match) => Number(match[1]));
  const year = years.length > 0 ? years[years.length - 1]! : null;
  const named = NAMED_BEFORE_COLON.exec(title.trim());
  if (named && OWN_WORDS.test(named[2]!)) return { speaker: named[1]!.trim(), year };
  const bracketed = NAMED_IN_BRACKETS.exec(title.trim());
  if (bracketed && OWN_WORDS.test(bracketed[1]!)) return { speaker: bracketed[2]!.trim(), year };
  const published = /^(\d{4})-\d{2}/.exec(publishedAt ?? "");
  if (year === null && published) return { speaker: null, year: Number(published[1]), published: true };
  return { speaker: null, year };
}

/** Titles before a name: "President Lincoln" is Lincoln. */
const HONORIFICS = new Set("president senator governor general king queen prince princess dr mr mrs ms sir lord lady pope".split(" "));

/** A name's words, with "Mc Kinley" and "McKinley" the same. */
function nameWords(name: string): string[] {
  return words(name.replace(/\bMc\s+(?=\p{Lu})/gu, "Mc"));
}

/**
 * Does a speaker's name name this person? Every word the question gives must be in it ("Franklin
 * Roosevelt" and "Franklin D. Roosevelt"; an initial may be left out), the surname last, and a
 * single word is a surname ("Lincoln").
 */
export function namesPerson(name: string, person: string): boolean {
  const have = nameWords(name);
  const given = nameWords(person).filter((word) => !HONORIFICS.has(word));
  const wanted = given.length > 1 ? given.filter((word) => word.length > 1) : given;
  if (wanted.length === 0 || have.length === 0) return false;
  return have[have.length - 1] === wanted[wanted.length - 1] && wanted.every((word) => have.includes(word));
}
