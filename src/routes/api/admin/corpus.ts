import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse } from "../../../http/openapi";
import { corpusSize, removeCorpusDomain, ingestCorpus } from "../../../admin/corpus";

/**
 * The local document corpus (decisions.md "Local document corpus"): the search backend used
 * when no web search provider is configured. Admin only.
 */
export const corpusRoutes = createRouter();

const DocumentUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((value) => URL.canParse(value), { error: "must be an absolute URL" });

const CorpusDocument = z
  .object({
    url: DocumentUrl.openapi({
      description: "The document's absolute URL, at most 2048 characters: its identity (re-posting it replaces the document) and what citations show.",
      example: "https://en.wikipedia.org/wiki/Tariff",
    }),
    title: z.string().trim().min(1).max(500).openapi({ description: "The title, 1 to 500 characters." }),
    text: z.string().trim().min(1).max(2_000_000).openapi({ description: "The text research searches and quotes, 1 to 2,000,000 characters." }),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, { error: "must be a domain name" })
      .max(253)
      .optional()
      .openapi({ description: "The domain sources show, and that `DELETE /api/admin/corpus?domain=` removes by. Defaults to the host of the url." }),
  })
  .strict()
  .openapi("CorpusDocument", { description: "A document of the shared search corpus." });

const IngestBody = z
  .object({ documents: z.array(CorpusDocument).min(1).max(1000).openapi({ description: "The documents, 1 to 1000." }) })
  .strict()
  .openapi("CorpusIngestBody", { description: "Documents to add to the shared corpus." });
const IngestResult = z
  .object({ ingested: z.number().int().openapi({ description: "Documents stored (new or replaced)." }) })
  .openapi("CorpusIngestResult", { description: "What was stored." });
const DeleteResult = z
  .object({ deleted: z.number().int().openapi({ description: "Documents removed." }) })
  .openapi("CorpusDeleteResult", { description: "What was removed." });
const Stats = z
  .object({
    documents: z.number().int().openapi({ description: "Documents in the corpus." }),
    domains: z
      .array(
        z.object({
          domain: z.string().openapi({ description: "A domain." }),
          documents: z.number().int().openapi({ description: "Its documents." }),
        }),
      )
      .openapi({ description: "Documents per domain." }),
  })
  .openapi("CorpusStats", { description: "The corpus's size." });

const adminErrors = errorResponses("invalid_request", "unauthorized", "forbidden", "account_suspended");

corpusRoutes.openapi(
  createRoute({
    method: "post",
    path: "/",
    operationId: "adminIngestCorpus",
    tags: ["Admin"],
    summary: "Add documents to the corpus",
    description:
      "Adds documents to the shared corpus, the search space research uses when no web search provider is configured (and with `web: true` beside collections). A document with the url of one already there replaces it. Free; every account's research can find them.",
    security: JWT_SECURITY,
    request: {
      body: jsonBody(IngestBody, {
        documents: [
          {
            url: "https://en.wikipedia.org/wiki/Tariff",
            title: "Tariff",
            text: "A tariff or import tax is a duty imposed by a national government on imported goods...",
            domain: "en.wikipedia.org",
          },
        ],
      }),
    },
    responses: { 200: jsonResponse(IngestResult, "Documents stored", { ingested: 1 }), ...adminErrors },
  }),
  async (c) => {
    const { documents } = c.req.valid("json");
    const ingested = await ingestCorpus(c.get("deps"), c.get("user"), documents);
    return c.json({ ingested }, 200);
  },
);

corpusRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/",
    operationId: "adminDeleteCorpusDomain",
    tags: ["Admin"],
    summary: "Remove a domain from the corpus",
    description: "Removes every corpus document stored under a domain (exact match, not its subdomains). Jobs already running keep what they read.",
    security: JWT_SECURITY,
    request: {
      query: z.object({
        domain: z
          .string()
          .trim()
          .min(1)
          .max(253)
          .openapi({ param: { name: "domain", in: "query" }, description: "The domain whose documents to remove (exact match).", example: "en.wikipedia.org" }),
      }),
    },
    responses: { 200: jsonResponse(DeleteResult, "Documents removed", { deleted: 12 }), ...adminErrors },
  }),
  async (c) => {
    const { domain } = c.req.valid("query");
    const deleted = await removeCorpusDomain(c.get("deps"), c.get("user"), domain);
    return c.json({ deleted }, 200);
  },
);

corpusRoutes.openapi(
  createRoute({
    method: "get",
    path: "/stats",
    operationId: "adminGetCorpusStats",
    tags: ["Admin"],
    summary: "Get the corpus's size",
    description: "How many documents the shared corpus holds, in all and per domain.",
    security: JWT_SECURITY,
    responses: {
      200: jsonResponse(Stats, "Corpus statistics", {
        documents: 245,
        domains: [
          { domain: "sotu.corpus", documents: 233 },
          { domain: "en.wikipedia.org", documents: 12 },
        ],
      }),
      ...errorResponses("unauthorized", "forbidden", "account_suspended"),
    },
  }),
  async (c) => c.json(await corpusSize(c.get("deps")), 200),
);
