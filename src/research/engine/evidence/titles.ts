import { STOPWORDS, words } from "../language";

/** Whether a page's title names an entity: exactly, by its disambiguation, by a surname, or in a text allowing a typo. */

/** A title without its disambiguation in brackets ("Ed Wood (film)" -> "Ed Wood"). */
export function bareTitle(title: string): string {
  return title.replace(/\s*\([^)]*\)\s*$/, "");
}

/** Does a page title name this entity ("Ed Wood" names "Ed Wood" and "Ed Wood (film)")? */
export function titleNames(title: string, entity: string): boolean {
  // "Beatles" names "The Beatles": a leading article is not part of the name.
  const clean = (text: string) => words(text).join(" ").replace(/^the /, "");
  const bare = clean(bareTitle(title));
  const wanted = clean(entity);
  return wanted.length > 0 && (bare === wanted || clean(title) === wanted);
}

/**
 * A page on one side of an entity ("History of Mississippi", "Economy of Finland", "Islam in
 * Romania", "South Korea at the Olympics"): what its own page would say, when it has none read.
 */
export function titleIsAspectOf(title: string, entity: string): boolean {
  const bare = words(bareTitle(title)).join(" ");
  const wanted = words(entity.split(",")[0] ?? "").join(" ");
  if (wanted.length === 0 || bare === wanted) return false;
  const aspect = bare.endsWith(` ${wanted}`) ? bare.slice(0, -wanted.length - 1).split(" ") : null;
  if (aspect && aspect.length >= 2 && aspect.length <= 4 && /^(?:of|in)$/.test(aspect[aspect.length - 1]!)) return true;
  return bare.startsWith(`${wanted} at the `);
}

/**
 * Looser: the entity is how a text refers to the page's subject, e.g. "Nixon" for "Richard
 * Nixon" (a surname) or "Ferguson" for "Alex Ferguson". Used to follow a hop, never to decide
 * what the question names.
 */
export function titleRefersTo(title: string, entity: string): boolean {
  if (titleNames(title, entity)) return true;
  // "Madison, Wisconsin" is the page of the place "Madison": a comma adds where it is.
  const comma = title.indexOf(", ");
  if (comma > 0 && titleNames(title.slice(0, comma), entity) && /^\p{Lu}/u.test(title.slice(comma + 2))) return true;
  const bare = words(bareTitle(title));
  const wanted = words(entity);
  // A comma's words say where the place before it is ("Ii, Finland"), not a surname.
  if (wanted.length === 0 || bare.length > 4 || comma > 0) return false;
  // The entity is the last word(s) of a short title: a surname.
  const tail = bare.slice(bare.length - wanted.length).join(" ");
  // What comes before the surname is a given name, not words of a phrase ("Tender Is the Night").
  const given = bare.slice(0, bare.length - wanted.length);
  return (
    bare.length > wanted.length &&
    tail === wanted.join(" ") &&
    /^\p{Lu}/u.test(entity) &&
    wanted.join("").length > 3 &&
    !given.some((word) => STOPWORDS.has(word))
  );
}

/** Edit distance of two words, at most `limit + 1` (enough to tell "within limit"). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

/** Two words are the same name allowing a typo: one edit in 5+ letters, two in 9+. */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const limit = Math.min(a.length, b.length) >= 9 ? 2 : Math.min(a.length, b.length) >= 5 ? 1 : 0;
  return limit > 0 && a[0] === b[0] && editDistance(a, b, limit) <= limit;
}

/**
 * The page's subject is named in a text: its title, without the disambiguation in brackets,
 * appears there word for word, in any case. With `allowTypos` (a question a person typed) a long
 * word may be misspelt ("leonardo da vinchi" names "Leonardo da Vinci") and a single short word
 * does not count; without it (a query the engine wrote) the words must be exact.
 */
export function textNamesTitle(text: string, title: string, options: { allowTypos: boolean }): boolean {
  const wanted = words(bareTitle(title));
  if (wanted.length === 0) return false;
  if (options.allowTypos && wanted.length === 1 && wanted[0]!.length < 4) return false;
  const same = options.allowTypos ? sameWord : (a: string, b: string) => a === b;
  const have = words(text);
  for (let start = 0; start + wanted.length <= have.length; start++) {
    if (wanted.every((word, offset) => same(have[start + offset]!, word))) return true;
  }
  return false;
}
