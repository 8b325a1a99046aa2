/**
 * What a page may cost the DOM path (Readability on linkedom) before the guard extractor reads it
 * instead: memory, estimated from the markup without parsing it, and elements (time).
 */

/**
 * Memory one page may take while it is read (issue 42: at most 64 MB of a Worker's 128 MB), as
 * bench/reader.ts measures it: the peak resident memory of a fresh workerd during the page's
 * request less what it held before (request body, DOM, Readability's work, the answer).
 */
export const PAGE_MEMORY_BUDGET_BYTES = 64 * 1024 * 1024;
/** The estimate a page may reach and still be given to the DOM: the budget less ~8 MB the request holds whatever the reader does. */
export const DOM_BUDGET_BYTES = 56 * 1024 * 1024;
/**
 * What reading a page through the DOM takes, fitted on pages measured in workerd (bench/reader.ts;
 * BENCH_READER_CALIBRATE=1): 30-35 bytes a character of markup (pages of long paragraphs of 1.6
 * and 2 MB took 64 and 69 MB: the text copied by linkedom, by Readability's innerHTML cache and text
 * measures, and by ours), ~1.1-1.5 KB an element (tag-dense pages), and up to ~0.75 KB an attribute
 * (Wikipedia's); each rounded up, so an estimate errs towards the guard.
 */
const BYTES_PER_CHAR = 40;
const BYTES_PER_ELEMENT = 1500;
const BYTES_PER_ATTRIBUTE = 300;

/**
 * Elements given to Readability at most: its time grows with them, and nothing inside a request
 * can stop it (workerd's clock stands still while JS runs). Measured in workerd (bench/reader.ts):
 * tag-dense pages of 15k and 27k elements took it 300 and 490 ms of CPU; the largest of its own
 * 130 test pages has 9.9k elements (Wikipedia's), a news page a few thousand.
 */
export const MAX_DOM_ELEMENTS = 20_000;

/** Elements ("<" then a letter) and attributes ("=") of the markup, counted without parsing it. */
export function markupCounts(html: string): { elements: number; attributes: number } {
  let elements = 0;
  for (let at = html.indexOf("<"); at >= 0; at = html.indexOf("<", at + 1)) {
    const next = html.charCodeAt(at + 1);
    if ((next >= 65 && next <= 90) || (next >= 97 && next <= 122)) elements++;
  }
  let attributes = 0;
  for (let at = html.indexOf("="); at >= 0; at = html.indexOf("=", at + 1)) attributes++;
  return { elements, attributes };
}

/** The estimated memory of a DOM of this markup, counted without parsing it: its elements, its attributes and its length. */
export function domCostEstimate(html: string, counts = markupCounts(html)): number {
  return counts.elements * BYTES_PER_ELEMENT + counts.attributes * BYTES_PER_ATTRIBUTE + html.length * BYTES_PER_CHAR;
}

/** What a page may cost the DOM path: memory (the estimate) and elements (time). */
export interface DomLimits {
  bytes: number;
  elements: number;
}
export const DOM_LIMITS: DomLimits = { bytes: DOM_BUDGET_BYTES, elements: MAX_DOM_ELEMENTS };
