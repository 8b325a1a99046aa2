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

/** Scores every passage against weighted query terms with BM25 (sentence field + title field). */
export function bm25Scores(passages: Passage[], query: Map<string, number>, options: Bm25Options = {}): number[] {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const titleWeight = options.titleWeight ?? 0.5;
  const n = passages.length;
  if (n === 0) return [];
  // Only the query's terms matter: counting every term of every passage (thousands of passages
  // when long pages are read) was most of the ranking's time.
  const documentFrequency = new Map<string, number>();
  let totalLength = 0;
  for (const passage of passages) {
    totalLength += passage.terms.length;
    const present = new Set<string>();
    for (const term of passage.terms) if (query.has(term)) present.add(term);
    for (const term of passage.titleTerms) if (query.has(term)) present.add(term);
    for (const term of present) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const averageLength = totalLength / n || 1;
  return passages.map((passage) => {
    const counts = new Map<string, number>();
    for (const term of passage.terms) if (query.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
    let score = 0;
    for (const [term, weight] of query) {
      const df = documentFrequency.get(term) ?? 0;
      if (df === 0) continue;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const tf = (counts.get(term) ?? 0) + (passage.titleTerms.includes(term) ? titleWeight : 0);
      if (tf === 0) continue;
      score += weight * idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * passage.terms.length) / averageLength)));
    }
    return score;
  });
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
