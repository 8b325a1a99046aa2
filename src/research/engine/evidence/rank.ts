/**
 * BM25 over passages (sentences of the pages read) and maximal marginal relevance, so the
 * brief favours the sentences that answer the question without repeating itself.
 */

export interface Passage {
  /** Index of the source document in the evidence store. */
  doc: number;
  /** Position of the sentence in its document (0 = lead sentence). */
  position: number;
  text: string;
  /** Stemmed content terms of the sentence. */
  terms: string[];
  /** Stemmed content terms of the document title: a sentence is about its page's subject. */
  titleTerms: string[];
  /** Offsets of the sentence in the page text as read (end exclusive): where a claim's quote is. */
  start: number;
  end: number;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
  /** Weight of a title term match relative to a sentence term match. */
  titleWeight?: number;
}

/** A passage that holds a query term (in its sentence or its title), with how often each occurs. */
interface Match {
  index: number;
  /** Occurrences in the sentence, by query term (in the query's order). */
  counts: number[];
  /** Whether its page's title holds each query term. */
  inTitle: boolean[];
}

/**
 * Scores every passage against weighted query terms with BM25 (sentence field + title field).
 * A passage with no query term in its sentence or title scores 0, so only the passages that hold
 * one are scored: on long pages that is a small share of the thousands of sentences read.
 */
export function bm25Scores(passages: Passage[], query: Map<string, number>, options: Bm25Options = {}): number[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const titleWeight = options.titleWeight ?? 0.5;
  const n = passages.length;
  if (n === 0) return [];
  const weights = [...query.values()];
  const { matches, documentFrequency, totalLength } = queryMatches(passages, [...query.keys()]);
  const averageLength = totalLength / n || 1;
  const idf = documentFrequency.map((df) => Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  const scores = new Array<number>(n).fill(0);
  for (const { index, counts, inTitle } of matches) {
    const length = passages[index]!.terms.length;
    let score = 0;
    // The query's order, as a sum of floats depends on it.
    for (let term = 0; term < weights.length; term++) {
      if (documentFrequency[term] === 0) continue;
      const tf = counts[term]! + (inTitle[term] ? titleWeight : 0);
      if (tf === 0) continue;
      score += weights[term]! * idf[term]! * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * length) / averageLength)));
    }
    scores[index] = score;
  }
  return scores;
}

/**
 * One pass over the passages: those holding a query term, each term's document frequency, and
 * the total length. Only the query's terms are counted: counting every term of every passage
 * (thousands of passages when long pages are read) was most of the ranking's time.
 */
function queryMatches(passages: Passage[], queryTerms: string[]): { matches: Match[]; documentFrequency: number[]; totalLength: number } {
  const slot = new Map(queryTerms.map((term, index) => [term, index]));
  const documentFrequency = new Array<number>(queryTerms.length).fill(0);
  const matches: Match[] = [];
  let totalLength = 0;
  // A page's passages share its title terms (one array): what the title holds is read once a page.
  let title: string[] | null = null;
  let inTitle: boolean[] = [];
  let titleHolds = false;
  for (let index = 0; index < passages.length; index++) {
    const passage = passages[index]!;
    totalLength += passage.terms.length;
    if (passage.titleTerms !== title) {
      title = passage.titleTerms;
      inTitle = queryTerms.map((term) => passage.titleTerms.includes(term));
      titleHolds = inTitle.includes(true);
    }
    let counts: number[] | null = null;
    for (const term of passage.terms) {
      const at = slot.get(term);
      if (at === undefined) continue;
      counts ??= new Array<number>(queryTerms.length).fill(0);
      counts[at]!++;
    }
    if (counts === null && !titleHolds) continue;
    counts ??= new Array<number>(queryTerms.length).fill(0);
    for (let term = 0; term < queryTerms.length; term++) if (counts[term]! > 0 || inTitle[term]) documentFrequency[term]!++;
    matches.push({ index, counts, inTitle });
  }
  return { matches, documentFrequency, totalLength };
}

/** Jaccard similarity of two term lists, the redundancy measure of MMR. */
export function similarity(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setA = new Set(a);
  const setB = new Set(b);
  let shared = 0;
  for (const term of setA) if (setB.has(term)) shared++;
  return shared / (setA.size + setB.size - shared);
}

/**
 * Maximal marginal relevance: repeatedly takes the item with the best
 * `lambda * relevance - (1 - lambda) * max similarity to what is already taken`.
 * Relevance is normalised to [0, 1] so lambda means the same for any query.
 */
export function mmr<T>(items: T[], relevance: number[], termsOf: (item: T) => string[], k: number, lambda = 0.7): T[] {
  const max = Math.max(...relevance, 1e-9);
  const remaining = items.map((item, index) => ({ item, relevance: (relevance[index] ?? 0) / max }));
  const chosen: { item: T; terms: string[] }[] = [];
  while (chosen.length < k && remaining.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    remaining.forEach((candidate, index) => {
      const redundancy = Math.max(0, ...chosen.map((taken) => similarity(termsOf(candidate.item), taken.terms)));
      const value = lambda * candidate.relevance - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    const [picked] = remaining.splice(bestIndex, 1);
    chosen.push({ item: picked!.item, terms: termsOf(picked!.item) });
  }
  return chosen.map((entry) => entry.item);
}
