import type { SearchProviderName } from "../../env";
import { corpusStats } from "./corpus-store";
import { MAX_EXCLUDE_OPERATORS } from "./search/searxng";

/**
 * What the default search space is, told to a person: which backend a job searches when it names
 * no collection, and, for the local corpus, what it holds and questions it answers well. A
 * newcomer otherwise has no way to know that a fresh `npm start` holds only State of the Union
 * addresses, and asks questions it cannot answer (issue 38).
 */

interface KnownCorpus {
  description: string;
  /** Questions the offline engine answers with a cited short answer on this corpus, in every mode (checked by test/e2e/search-source.e2e.test.ts). */
  exampleQuestions: string[];
}

/**
 * The corpora this repository ships, by their domain. `sotu.corpus` is the one
 * scripts/seed-corpus.mjs seeds for `npm start` (its SOTU_DOMAIN); a corpus an operator loads
 * under another domain is listed by name and size only.
 */
const KNOWN_CORPORA: Record<string, KnownCorpus> = {
  "sotu.corpus": {
    description: "US State of the Union addresses, 1790–2021 (public domain)",
    exampleQuestions: [
      "What did presidents say about the Panama Canal?",
      "What did Lyndon Johnson say about the war on poverty?",
      "What did Eisenhower say about the interstate highway system?",
      "How did presidents describe tariffs in the 19th century?",
    ],
  },
};

const WEB_SEARCH_NAMES: Record<Exclude<SearchProviderName, "corpus">, string> = {
  brave: "Brave Search",
  tavily: "Tavily",
  exa: "Exa",
  searxng: "a SearXNG instance",
};

/**
 * How `include_domains` / `exclude_domains` reach each backend (issue 41, item 6). Every result is
 * checked against them afterwards whatever the backend (providers/domains.ts): this says what a
 * caller gets in recall, not whether the filters hold.
 */
const DOMAIN_FILTERS: Record<SearchProviderName, string> = {
  corpus: "include_domains and exclude_domains select the corpus's documents by domain.",
  brave: "include_domains and exclude_domains are sent to Brave Search as a Goggle (an allow list and a block list).",
  tavily: "include_domains and exclude_domains are sent to Tavily as its own parameters.",
  exa: "include_domains and exclude_domains are sent to Exa as its own parameters.",
  searxng: `SearXNG has no domain parameter: one included domain is sent as a site: word and the first ${MAX_EXCLUDE_OPERATORS} excluded domains as -site: words, which the instance's engines may or may not honour; with two or more included domains the search runs unfiltered and results outside them are dropped, so a job finds fewer sources.`,
};

/** How many of the corpus's domains are listed (largest first); an operator's corpus may have many. */
const LISTED_DOMAINS = 20;

export interface SearchSource {
  provider: SearchProviderName;
  summary: string;
  domain_filters: string;
  corpus: { documents: number; domains: { domain: string; documents: number; description: string | null }[] } | null;
  example_questions: string[];
}

export async function describeSearchSource(provider: SearchProviderName, db: D1Database): Promise<SearchSource> {
  if (provider !== "corpus") {
    return {
      provider,
      summary: `Research searches the web through ${WEB_SEARCH_NAMES[provider]}.`,
      domain_filters: DOMAIN_FILTERS[provider],
      corpus: null,
      example_questions: [],
    };
  }
  const stats = await corpusStats(db);
  const domains = stats.domains.slice(0, LISTED_DOMAINS).map(({ domain, documents }) => ({
    domain,
    documents,
    description: KNOWN_CORPORA[domain]?.description ?? null,
  }));
  return {
    provider,
    summary: corpusSummary(stats.documents, domains),
    domain_filters: DOMAIN_FILTERS.corpus,
    corpus: { documents: stats.documents, domains },
    example_questions: domains.flatMap(({ domain }) => KNOWN_CORPORA[domain]?.exampleQuestions ?? []),
  };
}

function corpusSummary(documents: number, domains: { domain: string; documents: number; description: string | null }[]): string {
  if (documents === 0) return "Research searches a local document corpus, which is empty: every question finds nothing until an operator loads documents.";
  const what = domains.map(({ domain, documents, description }) => `${description ?? domain}, ${count(documents)}`).join("; ");
  return `Research searches a local document corpus, not the web: ${what}.`;
}

const count = (documents: number) => `${documents.toLocaleString("en-US")} document${documents === 1 ? "" : "s"}`;
