import { STOPWORDS } from "./text";

/** Capitalised words a page ran into the sentence after them: "RAILROADS In addition, …", "THE U.S.-SOVIET RELATIONSHIP We are …". */
const RUN_IN_HEADING = /^(?:[\p{Lu}\p{N}][\p{Lu}\p{N}.'’&-]*[\s,]+)+(?=\p{Lu}\p{Ll})/u;
/** A short word a heading sets in title case between its capitals: "THE ECONOMIC IMPACT Of THE LIQUIDATION OF THE WAR PROGRAM Government programs …". */
const TITLE_CASE_LINK = /^(?:Of|And|The|To|In|For|On|At|By)\s+/;

/** A heading's words: two at least, or one of five letters or more ("I", "NATO", "US" alone are no heading). */
const isHeading = (heading: string) => heading.trim().split(/\s+/).length >= 2 || heading.replace(/[^\p{L}]/gu, "").length >= 5;

/**
 * A section's number before its first sentence: "X. Our civil and social rights …", "IV. The
 * budget …". One letter is also an initial ("L. Frank Baum wrote"): a number only before a word
 * that names no one ("Our", "The").
 */
const SECTION_NUMBER = /^(?:([IVXL])|[IVXL]{2,5}|\d{1,2})\.\s+(?=(\p{Lu}\p{Ll}*))/u;

/** A sentence without a heading, or a section's number, run into it. */
export function withoutHeading(text: string): string {
  const numbered = SECTION_NUMBER.exec(text);
  if (numbered && (!numbered[1] || STOPWORDS.has(numbered[2]!.toLowerCase()))) return withoutHeading(text.slice(numbered[0].length));
  const heading = RUN_IN_HEADING.exec(text)?.[0];
  if (!heading || !isHeading(heading)) return text;
  const rest = text.slice(heading.length);
  // The heading goes on past a title-case "Of" when capitals follow it.
  const link = TITLE_CASE_LINK.exec(rest)?.[0];
  if (link) {
    const more = RUN_IN_HEADING.exec(rest.slice(link.length))?.[0];
    if (more) return withoutHeading(rest.slice(link.length));
  }
  return rest;
}
