import { createRoute, z } from "@hono/zod-openapi";
import { createRouter, errorResponses, JWT_SECURITY, jsonBody, jsonResponse } from "../../../http/openapi";
import { adminGuard } from "../../../middleware/admin-guard";
import { corpusSize, removeCorpusDomain, ingestCorpus } from "../../../admin/corpus";

/**
 * The local document corpus (decisions.md "Local document corpus"): the search backend used
 * when no web search provider is configured. Admin only.
 */
export const corpusRoutes = createRouter();
corpusRoutes.use("*", adminGuard);

const DocumentUrl = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((value) => URL.canParse(value), { error: "must be an absolute URL" });

const CorpusDocument = z
  .object({
    url: DocumentUrl.openapi({ example: "https://en.wikipedia.org/wiki/Tariff" }),
    title: z.string().trim().min(1).max(500),
    text: z.string().trim().min(1).max(2_000_000),
    domain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]+(\.[a-z0-9-]+)*$/, { error: "must be a domain name" })
      .max(253)
      .optional()
      .openapi({ description: "Defaults to the host of the url." }),
  })
  .strict()
  .openapi("CorpusDocument");

const IngestBody = z.object({ documents: z.array(CorpusDocument).min(1).max(1000) }).strict().openapi("CorpusIngestBody");
const IngestResult = z.object({ ingested: z.number().int() }).openapi("CorpusIngestResult");
const DeleteResult = z.object({ deleted: z.number().int() }).openapi("CorpusDeleteResult");
const Stats = z
  .object({ documents: z.number().int(), domains: z.array(z.object({ domain: z.string(), documents: z.number().int() })) })
  .openapi("CorpusStats");

const adminErrors = errorResponses("invalid_request", "unauthorized", "forbidden", "account_suspended");

corpusRoutes.openapi(
  createRoute({
    method: "post",
    path: "/",
    tags: ["Admin"],
    summary: "Add or replace corpus documents (by url)",
    security: JWT_SECURITY,
    request: { body: jsonBody(IngestBody) },
    responses: { 200: jsonResponse(IngestResult, "Documents stored"), ...adminErrors },
  }),
  async (c) => {
    const { documents } = c.req.valid("json");
    const ingested = await ingestCorpus(c.var.deps, c.var.user, documents);
    return c.json({ ingested }, 200);
  },
);

corpusRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/",
    tags: ["Admin"],
    summary: "Remove a domain's documents from the corpus",
    security: JWT_SECURITY,
    request: { query: z.object({ domain: z.string().trim().min(1).max(253).openapi({ param: { name: "domain", in: "query" }, example: "en.wikipedia.org" }) }) },
    responses: { 200: jsonResponse(DeleteResult, "Documents removed"), ...adminErrors },
  }),
  async (c) => {
    const { domain } = c.req.valid("query");
    const deleted = await removeCorpusDomain(c.var.deps, c.var.user, domain);
    return c.json({ deleted }, 200);
  },
);

corpusRoutes.openapi(
  createRoute({
    method: "get",
    path: "/stats",
    tags: ["Admin"],
    summary: "Corpus size by domain",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(Stats, "Corpus statistics"), ...errorResponses("unauthorized", "forbidden", "account_suspended") },
  }),
  async (c) => c.json(await corpusSize(c.var.deps), 200),
);
