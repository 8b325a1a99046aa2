import type { Passage } from "./rank";
import { bm25Scores } from "./rank";
import { contentTerm, decodeEntities, sentenceSpans, stem, terms, words } from "../language";
import { dateline, type PageMetadata, sourceMetadata } from "./page-metadata";

/** A page that was read, split into passages. */
export interface EvidenceDoc {
  index: number;
  url: string;
  title: string;
  domain: string;
  /** The page text as read, with its dateline after it when it has one: passages' offsets point into it. */
  text: string;
  /** When the page says it was published (ISO 8601), from its metadata. */
  published_at?: string;
  /** Who the page says wrote it, from its metadata. */
  author?: string;
  sentences: string[];
  /**
   * Each sentence's words (lower-cased, accent-folded), one sentence per line: what a name is
   * looked for in. Made from the same tokens as the passages' terms, so a page is tokenized once.
   */
  mentionKeys: string;
  passages: Passage[];
  wave: number;
  /** The search queries that found it. */
  foundBy: string[];
}

/** Long pages are capped so one speech or book cannot crowd out every other source. */
const MAX_SENTENCES_PER_DOC = 1500;
/** Scorings kept for reuse: the question's terms and a hop's focus terms, with room for one more. */
const RECENT_SCORES = 3;

/** Everything read so far, with passage scoring against weighted query terms. */
export class Evidence {
  readonly docs: EvidenceDoc[] = [];
  private readonly byUrl = new Map<string, EvidenceDoc>();
  /**
   * One string per distinct term: a job's evidence holds ~100k terms of a few thousand words, and
   * a string each made it weigh 5x its text (the job's memory is its evidence).
   */
  private readonly termPool = new Map<string, string>();
  /**
   * Each word's content term (its pooled stem), or null for a stopword: a job's pages repeat a
   * few thousand words ~100k times, so each is filtered and stemmed once, not at every use.
   */
  private readonly termOfWord = new Map<string, string | null>();
  /** Every passage in document order, kept as pages are added (scoring reads it once a call). */
  private readonly passageList: Passage[] = [];
  /**
   * The last few BM25 scorings, by passage count and query: the synthesis scores the evidence of
   * the last wave's analysis again, and a hop target's focus terms are scored once per target.
   */
  private readonly recentScores: { key: string; scores: number[] }[] = [];

  has(url: string): boolean {
    return this.byUrl.has(url);
  }

  get(url: string): EvidenceDoc | undefined {
    return this.byUrl.get(url);
  }

  /** The one string kept for this term. */
  private pooledTerm(term: string): string {
    const known = this.termPool.get(term);
    if (known !== undefined) return known;
    this.termPool.set(term, term);
    return term;
  }

  /** contentTerms(tokens), pooled, with each distinct word filtered and stemmed once per job. */
  private contentTermsOf(tokens: string[]): string[] {
    const out: string[] = [];
    for (const word of tokens) {
      let term = this.termOfWord.get(word);
      if (term === undefined) {
        const stemmed = contentTerm(word);
        term = stemmed === null ? null : this.pooledTerm(stemmed);
        this.termOfWord.set(word, term);
      }
      if (term !== null) out.push(term);
    }
    return out;
  }

  add(page: { url: string; title: string; text: string } & PageMetadata, domain: string, wave: number, foundBy: string[]): EvidenceDoc {
    const existing = this.byUrl.get(page.url);
    if (existing) return existing;
    // The page's date and author, when it states them, as its last sentence: after the text, so
    // the offsets of the page's own sentences are those of the text as read.
    const line = dateline(page);
    const text = line ? `${page.text.trimEnd()}\n\n${line}` : page.text;
    // Scraped text may hold HTML character references ("Tunnels &amp; Trolls"): sentences are
    // read decoded, while their offsets stay those of the text as stored.
    const spans = sentenceSpans(page.text);
    // A sentence can hold a reference only where the page does: most pages skip decoding.
    if (page.text.includes("&")) for (const span of spans) span.text = decodeEntities(span.text);
    const split = spans.filter((span) => /[\p{L}]{2}/u.test(span.text)).slice(0, MAX_SENTENCES_PER_DOC);
    // The dateline is a sentence of its own, the last, kept past a long page's cap.
    if (line) split.push({ text: line, start: text.length - line.length, end: text.length });
    const title = decodeEntities(page.title || page.url);
    const titleTerms = terms(title.replace(/\([^)]*\)/g, " "));
    const passages: Passage[] = [];
    const mentionLines: string[] = [];
    // One sentence at a time: its words are dropped as soon as its terms and mention line are made.
    for (const [position, span] of split.entries()) {
      const tokens = words(span.text);
      mentionLines.push(tokens.join(" "));
      passages.push({
        doc: this.docs.length,
        position,
        text: span.text,
        terms: this.contentTermsOf(tokens),
        titleTerms,
        start: span.start,
        end: span.end,
      });
    }
    const doc: EvidenceDoc = {
      index: this.docs.length,
      url: page.url,
      title,
      domain,
      text,
      ...sourceMetadata(page),
      sentences: split.map((span) => span.text),
      mentionKeys: mentionLines.join("\n"),
      passages,
      wave,
      foundBy,
    };
    this.docs.push(doc);
    this.byUrl.set(page.url, doc);
    for (const passage of doc.passages) this.passageList.push(passage);
    return doc;
  }

  allPassages(): Passage[] {
    return [...this.passageList];
  }

  /** Scores of all passages (in allPassages() order) against weighted terms, with a small lead-sentence bonus. */
  score(query: Map<string, number>): { passage: Passage; score: number }[] {
    const passages = this.passageList;
    const scores = this.bm25(query);
    return passages.map((passage, index) => {
      const doc = this.docs[passage.doc]!;
      // The opening sentence of a short page usually defines its subject ("X is an American ...").
      const lead = passage.position === 0 && doc.sentences.length <= 40 ? 1.15 : 1;
      return { passage, score: (scores[index] ?? 0) * lead };
    });
  }

  /** bm25Scores over every passage, reused while no page was added and the query (terms, weights, order) is the same. */
  private bm25(query: Map<string, number>): number[] {
    const key = `${this.passageList.length} ${JSON.stringify([...query])}`;
    const known = this.recentScores.find((entry) => entry.key === key);
    if (known) return known.scores;
    const scores = bm25Scores(this.passageList, query);
    this.recentScores.unshift({ key, scores });
    this.recentScores.length = Math.min(this.recentScores.length, RECENT_SCORES);
    return scores;
  }
}

/**
 * Whether a sentence of the page says these words together, as whole words (`key` is words()
 * joined by spaces). Reads `mentionKeys` in place: no copy of a long page per question name.
 */
export function pageSaysWords(doc: EvidenceDoc, key: string): boolean {
  if (!key) return false;
  const text = doc.mentionKeys;
  const boundary = (char: string | undefined) => char === undefined || char === " " || char === "\n";
  for (let at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
    if (boundary(text[at - 1]) && boundary(text[at + key.length])) return true;
  }
  return false;
}

/** Weighted query terms: entity words count more than the other words of the question. */
export function weightedTerms(base: string[], entities: string[], extra: string[] = [], extraWeight = 0.6): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of base) weights.set(term, 1);
  for (const entity of entities)
    for (const word of words(entity)) {
      const term = stem(word);
      weights.set(term, Math.max(weights.get(term) ?? 0, 1.5));
    }
  for (const term of extra) if (!weights.has(term)) weights.set(term, extraWeight);
  return weights;
}
