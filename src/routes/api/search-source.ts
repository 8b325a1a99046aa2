import { createRoute, z } from "@hono/zod-openapi";
import { SEARCH_PROVIDER, providerNames } from "../../env";
import { createRouter, errorResponses, JWT_SECURITY, jsonResponse } from "../../http/openapi";
import { searchSource } from "../../research/service";

/**
 * What research searches by default, for the dashboard (decisions.md, "What the default search
 * space holds"): any signed-in account may read it; the corpus's figures in full stay admin-only
 * (`GET /api/admin/corpus/stats`).
 */
export const searchSourceRoutes = createRouter();

const CorpusDomainDto = z
  .object({
    domain: z.string().openapi({ description: "The domain its sources show (`sotu.corpus` for the demo corpus)." }),
    documents: z.int().openapi({ description: "Its documents." }),
    description: z
      .string()
      .nullable()
      .openapi({ description: "What it holds, for a corpus this service ships (the demo corpus); null for one an operator loaded." }),
  })
  .openapi("CorpusDomain", { description: "One domain of the local corpus." });

const SearchSourceDto = z
  .object({
    provider: z.enum(providerNames(SEARCH_PROVIDER)).openapi({
      description:
        "The search backend of a job that names no collection: `corpus` (the service's local document corpus, searched offline) or a web search provider (`brave`, `tavily`, `exa`, `searxng`).",
    }),
    summary: z.string().openapi({ description: "What that means, in one sentence for a person." }),
    domain_filters: z.string().openapi({
      description:
        "How a job's `include_domains` and `exclude_domains` reach this backend. Every source a job cites obeys them whatever the backend; a backend that cannot take them (SearXNG) finds fewer sources.",
    }),
    corpus: z
      .object({
        documents: z.int().openapi({ description: "Documents in the corpus (0: every question finds nothing until documents are loaded)." }),
        domains: z.array(CorpusDomainDto).openapi({ description: "Its domains, the largest first (at most 20)." }),
      })
      .nullable()
      .openapi({ description: "The local corpus, when `provider` is `corpus`; null for web search." }),
    example_questions: z.array(z.string()).openapi({
      description:
        "Questions the default sources answer well, to try first: those of the demo corpus when it is loaded (each gets a cited short answer); empty otherwise.",
    }),
  })
  .openapi("SearchSource", { description: "What research searches when a job names no collection." });

searchSourceRoutes.openapi(
  createRoute({
    method: "get",
    path: "/dashboard/search-source",
    operationId: "getSearchSource",
    tags: ["Dashboard"],
    security: JWT_SECURITY,
    summary: "What research searches",
    description:
      "The default search space of a research job (one that names no collection): the search backend, and for the local corpus what it holds and questions it answers well. The playground shows it, so a newcomer asks questions the sources can answer. Free.",
    responses: {
      200: jsonResponse(SearchSourceDto, "The default search space", {
        provider: "corpus",
        summary: "Research searches a local document corpus, not the web: US State of the Union addresses, 1790–2021 (public domain), 233 documents.",
        domain_filters: "include_domains and exclude_domains select the corpus's documents by domain.",
        corpus: {
          documents: 233,
          domains: [{ domain: "sotu.corpus", documents: 233, description: "US State of the Union addresses, 1790–2021 (public domain)" }],
        },
        example_questions: ["What did presidents say about the Panama Canal?", "What did Lyndon Johnson say about the war on poverty?"],
      }),
      ...errorResponses("unauthorized"),
    },
  }),
  async (c) => c.json(await searchSource(c.get("deps")), 200),
);
