import {
  type ChatRequest,
  type Page,
  type PageReader,
  type Providers,
  ProviderError,
  type SearchHit,
  type SearchProvider,
  type SearchQuery,
} from "../../src/research/providers/types";
import { planPrompt, reflectPrompt } from "../../src/research/engine/prompts";
import { domainAllowed, domainOf } from "../../src/research/providers/domains";
import { terms } from "../../src/research/engine/language";
import { analyzeEvidence, Evidence } from "../../src/research/engine/evidence";
import { type AnswerOutcome, answerQuestion, FEATURE_NAMES, type FeatureName } from "../../src/research/engine/answer";
import { analyzeQuestion } from "../../src/research/engine/question";

export interface FakeDoc {
  url: string;
  title: string;
  text: string;
}

/** An in-memory search index: ranks documents by shared terms (title counted twice). */
export class MemorySearch implements SearchProvider {
  readonly name = "memory";
  readonly queries: SearchQuery[] = [];

  constructor(private readonly docs: FakeDoc[]) {}

  async search(query: SearchQuery): Promise<SearchHit[]> {
    this.queries.push(query);
    const wanted = new Set(terms(query.query));
    return this.docs
      .map((doc) => ({
        doc,
        score: terms(doc.title).filter((term) => wanted.has(term)).length * 2 + terms(doc.text).filter((term) => wanted.has(term)).length,
      }))
      .filter((entry) => entry.score > 0 && domainAllowed(domainOf(entry.doc.url), query))
      .sort((a, b) => b.score - a.score)
      .slice(0, query.limit)
      .map(({ doc, score }) => ({ url: doc.url, title: doc.title, snippet: doc.text.slice(0, 120), domain: domainOf(doc.url), score }));
  }
}

export class MemoryReader implements PageReader {
  readonly reads: string[] = [];

  constructor(private readonly docs: FakeDoc[]) {}

  async read(url: string): Promise<Page | null> {
    this.reads.push(url);
    const doc = this.docs.find((entry) => entry.url === url);
    return doc ? { ...doc, cached: false } : null;
  }
}

export function memoryProviders(docs: FakeDoc[]): Providers & { search: MemorySearch; reader: MemoryReader } {
  return { search: new MemorySearch(docs), reader: new MemoryReader(docs), llm: null };
}

export const WIKI = (title: string) => `https://en.wikipedia.org/wiki/${title.replace(/ /g, "_")}`;

/** A small two-hop corpus in the HotpotQA style, with distractors. */
export const TWO_HOP_DOCS: FakeDoc[] = [
  {
    url: WIKI("Kiss and Tell (1945 film)"),
    title: "Kiss and Tell (1945 film)",
    text: "Kiss and Tell is a 1945 American comedy film starring then 17-year-old Shirley Temple as Corliss Archer. In the film, two teenage girls cause their respective parents much concern when they start to become interested in boys.",
  },
  {
    url: WIKI("Shirley Temple"),
    title: "Shirley Temple",
    text: "Shirley Temple Black (April 23, 1928 – February 10, 2014) was an American actress, singer, dancer, businesswoman, and diplomat. As an adult, she was named United States ambassador to Ghana and to Czechoslovakia and also served as Chief of Protocol of the United States.",
  },
  {
    url: WIKI("Meet Corliss Archer"),
    title: "Meet Corliss Archer",
    text: "Meet Corliss Archer, a program from radio's Golden Age, ran from January 7, 1943 to September 30, 1956.",
  },
  {
    url: WIKI("Lord High Treasurer"),
    title: "Lord High Treasurer",
    text: "The post of Lord High Treasurer was an English government position and has been a British government position since the Acts of Union of 1707.",
  },
  {
    url: WIKI("Scott Derrickson"),
    title: "Scott Derrickson",
    text: "Scott Derrickson (born July 16, 1966) is an American director, screenwriter and producer. He lives in Los Angeles, California.",
  },
  {
    url: WIKI("Ed Wood"),
    title: "Ed Wood",
    text: "Edward Davis Wood Jr. (October 10, 1924 – December 10, 1978) was an American filmmaker, actor, writer, producer, and director.",
  },
  {
    url: WIKI("Henry Roth"),
    title: "Henry Roth",
    text: "Henry Roth (February 8, 1906 – October 13, 1995) was an American novelist and short story writer.",
  },
  {
    url: WIKI("Robert Erskine Childers"),
    title: "Robert Erskine Childers",
    text: "Robert Erskine Childers DSC (25 June 1870 – 24 November 1922) was an English-born Irish writer, whose works included the novel The Riddle of the Sands.",
  },
];

/**
 * A plan or reflect call (the gathering stages a model takes). Tests of the write stage whose
 * models answer from a list decline these, so gathering stays offline and the list is theirs.
 */
export function isPlanOrReflect(request: ChatRequest): boolean {
  const empty = { question: "", subQuestions: [], passages: [], searched: [], pages: [], maxQueries: 1, maxUrls: 1 };
  return request.system === planPrompt("", 1).system || request.system === reflectPrompt(empty).system;
}

/** How a test model declines a call: a 400, which is not retried (the stage falls back at once). */
export function declined(): ProviderError {
  return new ProviderError("scripted", "this test's model does not plan or reflect", 400);
}

/** The pages read, each a Wikipedia page by title and text: the evidence the answer stage works on. */
export function evidenceOf(pages: [string, string][]): Evidence {
  const evidence = new Evidence();
  for (const [title, text] of pages)
    evidence.add({ url: `https://en.wikipedia.org/wiki/${encodeURIComponent(title)}`, title, text }, "en.wikipedia.org", 1, []);
  return evidence;
}

/** One feature of the candidate answering this text, when there is one ("wrong_hop" of "27,340"). */
export function featureOf(outcome: AnswerOutcome, text: string, feature: FeatureName): number | undefined {
  return outcome.candidates?.find((candidate) => candidate.text === text)?.features[FEATURE_NAMES.indexOf(feature)];
}

/** The short-answer outcome of a question over these pages: its candidates, and what is stated. */
export function answerOutcome(question: string, evidence: Evidence): AnswerOutcome {
  const query = analyzeQuestion(question);
  return answerQuestion(query, analyzeEvidence(evidence, query), evidence);
}
