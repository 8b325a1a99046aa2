import { withoutPossessive, words } from "../language";

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
 * `publishedAt`, the page's own date, dates a page that is no one's own words when its
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
const HONORIFICS = new Set("president pres senator sen governor gov general gen king queen prince princess dr mr mrs ms sir lord lady pope".split(" "));

/** A name's words, with "Mc Kinley" and "McKinley" the same. */
function nameWords(name: string): string[] {
  return words(spelledInitials(name).replace(/\bMc\s+(?=\p{Lu})/gu, "Mc"));
}

/** Initials run together before a surname, spelled out: "GHW Bush" is "G H W Bush", "GW Bush" "G W Bush". */
function spelledInitials(name: string): string {
  return name.replace(/(^|\s)(\p{Lu}{2,3})\s+(?=\p{Lu}\p{Ll})/u, (_, before: string, initials: string) => `${before}${initials.split("").join(" ")} `);
}

/**
 * The forms a name word stands for, as words to find: a short given name's full one ("bill":
 * "william"), known initials' or a nickname's full name ("fdr": "franklin d roosevelt").
 */
export function nameWordMeanings(word: string): string[][] {
  const lower = word.toLowerCase();
  const full = GIVEN_NAME_FORMS[lower];
  const known = KNOWN_INITIALS[lower] ?? KNOWN_NICKNAMES[lower];
  return [...(full ? [[full]] : []), ...(known ? [nameWords(known)] : [])];
}

/** Given names as people shorten them ("Bill Clinton" is William J Clinton): the short form, then the name it stands for. */
const GIVEN_NAME_FORMS: Record<string, string> = {
  bill: "william",
  billy: "william",
  will: "william",
  jimmy: "james",
  jim: "james",
  ted: "theodore",
  teddy: "theodore",
  abe: "abraham",
  dick: "richard",
  ron: "ronald",
  jack: "john",
  andy: "andrew",
  tom: "thomas",
  ben: "benjamin",
  frank: "franklin",
  woody: "woodrow",
  cal: "calvin",
  gerry: "gerald",
  jerry: "gerald",
  chet: "chester",
  zach: "zachary",
  mike: "michael",
  bob: "robert",
  barry: "barack",
  joe: "joseph",
  joey: "joseph",
  don: "donald",
  donny: "donald",
  herb: "herbert",
  marty: "martin",
  johnny: "john",
  tommy: "thomas",
  georgie: "george",
};

/** A person's initials written as one word ("FDR", "JFK", "LBJ"): the initials of given names, middle initial and surname. */
function initialsOf(words: string[]): string {
  return words.map((word) => word[0]).join("");
}

/**
 * Does a speaker's name name this person? Every word the question gives must be in it ("Franklin
 * Roosevelt" and "Franklin D. Roosevelt"; an initial may be left out), the surname last, and a
 * single word is a surname ("Lincoln"). A given name may be its short form ("Bill Clinton" for
 * William J Clinton), a middle name the initial the name writes ("Franklin Delano Roosevelt" for
 * Franklin D Roosevelt), and a person may be named by their initials ("FDR", "LBJ").
 */
export function namesPerson(name: string, rawPerson: string): boolean {
  const person = withoutPossessive(rawPerson.trim()); // "JFK's" is JFK
  const have = nameWords(name);
  const given = nameWords(person).filter((word) => !HONORIFICS.has(word));
  const wanted = given.length > 1 ? given.filter((word) => word.length > 1) : given;
  if (wanted.length === 0 || have.length === 0) return false;
  // "Ike", "Honest Abe": a nickname that says nothing of the name it stands for; "TR": initials
  // too short to be read as initials of any name ("US" is no one's), known ones only.
  const nicknamed = knownName(given);
  if (nicknamed) return namesPerson(name, nicknamed);
  // "FDR": one word in capitals of three or more letters that are the name's initials.
  if (wanted.length === 1 && have.length >= 3 && /^\p{Lu}{3,4}$/u.test(person.trim()) && initialsOf(have) === wanted[0]) return true;
  const known = (word: string) => have.includes(word) || have.includes(GIVEN_NAME_FORMS[word] ?? "");
  // A middle name the speaker's name writes as its initial: "Franklin Delano Roosevelt" is Franklin D Roosevelt.
  const middleInitial = (word: string, index: number) => index > 0 && index < wanted.length - 1 && have.slice(1, -1).includes(word[0]!);
  return have[have.length - 1] === wanted[wanted.length - 1] && wanted.every((word, index) => known(word) || middleInitial(word, index));
}

/**
 * Who the question's person is among the speakers of the pages read: the speakers the name names
 * (`namesPerson`), narrowed to those whose names hold the middle initials the question gives when
 * any does, else to those whose names hold no other middle name. "George W. Bush" is George W
 * Bush, not George Bush, his father, when both spoke; "George H. W. Bush" is "George Bush" where
 * only that form is written, and never George W Bush.
 */
export function personAmong(asked: string, speakers: string[]): (speaker: string) => boolean {
  // A nickname's middle initials are its name's: "Dubya" is George W Bush, not his father.
  const person = knownName(nameWords(asked).filter((word) => !HONORIFICS.has(word))) ?? asked;
  const initials = nameWords(person)
    .filter((word) => !HONORIFICS.has(word))
    .slice(1, -1)
    .filter((word) => word.length === 1);
  const middles = (speaker: string) => nameWords(speaker).slice(1, -1);
  const holdsInitials = (speaker: string) => initials.every((initial) => middles(speaker).some((word) => word[0] === initial));
  // A name written without middle names says nothing against them; one with others is someone else.
  const compatible = (speaker: string) => middles(speaker).length === 0 || holdsInitials(speaker);
  const strict = initials.length > 0 && speakers.some((speaker) => namesPerson(speaker, person) && holdsInitials(speaker));
  return (speaker) => namesPerson(speaker, person) && (strict ? holdsInitials(speaker) : compatible(speaker));
}

/** Initials people write for a name, that nothing in the initials says (the demo corpus's speakers among them). */
const KNOWN_INITIALS: Record<string, string> = {
  fdr: "Franklin D Roosevelt",
  jfk: "John F Kennedy",
  lbj: "Lyndon B Johnson",
  tr: "Theodore Roosevelt",
  jqa: "John Quincy Adams",
  dde: "Dwight D Eisenhower",
  gwb: "George W Bush",
  hst: "Harry S Truman",
  rfk: "Robert F Kennedy",
  mlk: "Martin Luther King",
};

/** Nicknames that carry none of the name (the demo corpus's speakers among them), in lower case. */
const KNOWN_NICKNAMES: Record<string, string> = {
  ike: "Dwight D Eisenhower",
  "honest abe": "Abraham Lincoln",
  "old hickory": "Andrew Jackson",
  "silent cal": "Calvin Coolidge",
  "give em hell harry": "Harry S Truman",
  dubya: "George W Bush",
};

/** The full name initials or a nickname stand for ("FDR", "Ike"), from the name's words without titles. */
function knownName(given: string[]): string | undefined {
  return (given.length === 1 ? KNOWN_INITIALS[given[0]!] : undefined) ?? KNOWN_NICKNAMES[given.join(" ")];
}

/**
 * The forms a person's name may take in titles and text, to search by: the name as given, the
 * full given name for a short one ("William Clinton" for "Bill Clinton"), the surname alone, and
 * the name that known initials stand for ("Franklin D Roosevelt" for "FDR").
 */
export function nameForms(person: string): string[] {
  const given = nameWords(person).filter((word) => !HONORIFICS.has(word));
  if (given.length === 0) return [];
  const known = knownName(given);
  if (known) return [person.trim(), ...nameForms(known)];
  const forms = [given.join(" ")];
  const full = fullGivenNames(given);
  if (full.join(" ") !== forms[0]) forms.push(full.join(" "));
  if (given.length > 1) forms.push(given[given.length - 1]!);
  return forms;
}

/** The given names a short form stands for ("teddy roosevelt" -> "theodore roosevelt"); the surname is kept. */
function fullGivenNames(given: string[]): string[] {
  return given.map((word, index) => (index < given.length - 1 ? (GIVEN_NAME_FORMS[word] ?? word) : word));
}

/**
 * The name a person's own pages title them by, when the question wrote it another way: known
 * initials or a nickname ("FDR": "Franklin D Roosevelt", "Ike") or a short given name ("Teddy Roosevelt": "theodore
 * roosevelt"). Null when the name is already written in full, or is no person's.
 */
export function formalName(person: string): string | null {
  const given = nameWords(person).filter((word) => !HONORIFICS.has(word));
  const known = knownName(given);
  if (known) return known;
  if (given.length === 1) return null;
  // A name is capitalised words only: "Bill of Rights" is no William's.
  if (
    given.length > 4 ||
    !person
      .trim()
      .split(/\s+/)
      .every((word) => /^\p{Lu}/u.test(word))
  )
    return null;
  const full = fullGivenNames(given);
  return full.some((word, index) => word !== given[index]) ? full.join(" ") : null;
}
