import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { createRouter, errorResponses, jsonBody, jsonResponse } from "../http/openapi";
import { ApiError } from "../lib/errors";
import { PagingQuery } from "../lib/paging";
import {
  CollectionDto,
  collectionDto,
  CreateCollectionSchema,
  createCollection,
  deleteCollection,
  deleteDocument,
  documentsFromFiles,
  DocumentDto,
  DocumentSummaryDto,
  getDocument,
  IngestRequestSchema,
  IngestResultDto,
  ingest,
  listCollections,
  listDocuments,
  ownCollection,
  UpdateCollectionSchema,
  updateCollection,
} from "../research/service";

const CollectionParam = z.object({ id: z.uuid({ error: "id must be a UUID" }).openapi({ param: { name: "id", in: "path" } }) });
const DocumentParam = CollectionParam.extend({ doc_id: z.uuid({ error: "doc_id must be a UUID" }).openapi({ param: { name: "doc_id", in: "path" } }) });
const IngestIdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({ description: "Idempotency-Key: the same key and body return the first answer, written and charged once." }),
});

/** Files to upload: one or more `file` parts. */
const UploadSchema = z
  .object({ file: z.unknown().openapi({ type: "array", items: { type: "string", format: "binary" }, description: "One or more files: .txt, .md, .html, .pdf (text extracted) or .jsonl (one document a line); 20 MB each at most." }) })
  .openapi("DocumentUpload");

/** Before the body validators: only JSON or multipart bodies are read here (415 for anything else). */
const ingestContentType = createMiddleware(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json") && !type.startsWith("multipart/form-data")) {
    throw new ApiError("unsupported_media_type", "Send application/json ({documents: [...]}) or multipart/form-data with `file` parts.");
  }
  await next();
});

function uploadedFiles(form: { file?: unknown }): File[] {
  return [form.file].flat().filter((part): part is File => part instanceof File);
}

const Deleted = z.object({ deleted: z.literal(true) }).openapi("Deleted");

/** The collection routes: the same under /v1 (API key) and /api (JWT, for the dashboard). */
export function addCollectionRoutes(router: ReturnType<typeof createRouter>, surface: { tags: string[]; security: { [scheme: string]: string[] }[] }): void {
  const { tags, security } = surface;
  router.openapi(
    createRoute({
      method: "post",
      path: "/collections",
      tags,
      security,
      summary: "Create a collection of your own documents",
      request: { body: jsonBody(CreateCollectionSchema) },
      responses: { 200: jsonResponse(CollectionDto, "The collection"), ...errorResponses("invalid_request", "unauthorized") },
    }),
    async (c) => c.json(await createCollection(c.var.deps.db, c.var.user.id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections",
      tags,
      security,
      summary: "Your collections, newest first",
      request: { query: PagingQuery },
      responses: { 200: jsonResponse(z.array(CollectionDto), "Collections"), ...errorResponses("invalid_request", "unauthorized") },
    }),
    async (c) => c.json(await listCollections(c.var.deps.db, c.var.user.id, c.req.valid("query")), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}",
      tags,
      security,
      summary: "A collection",
      request: { params: CollectionParam },
      responses: { 200: jsonResponse(CollectionDto, "The collection"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(collectionDto(await ownCollection(c.var.deps.db, c.var.user.id, c.req.valid("param").id)), 200),
  );

  router.openapi(
    createRoute({
      method: "patch",
      path: "/collections/{id}",
      tags,
      security,
      summary: "Rename a collection or change its description",
      request: { params: CollectionParam, body: jsonBody(UpdateCollectionSchema) },
      responses: { 200: jsonResponse(CollectionDto, "The collection"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await updateCollection(c.var.deps.db, c.var.user.id, c.req.valid("param").id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/collections/{id}",
      tags,
      security,
      summary: "Delete a collection and its documents (a job already reading them finishes with what it read)",
      request: { params: CollectionParam },
      responses: { 200: jsonResponse(Deleted, "Deleted"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      await deleteCollection(c.var.deps.db, c.var.user.id, c.req.valid("param").id);
      return c.json({ deleted: true as const }, 200);
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path: "/collections/{id}/documents",
      tags,
      security,
      middleware: [ingestContentType] as const,
      summary: "Add documents: JSON (up to 100) or uploaded files (.txt, .md, .html, .pdf, .jsonl); the same url, or title without a url, replaces a document",
      description: "Charged at the `ingest_mb` op price (2 credits a MB of text, at least 1 credit a call), as a ledger entry of kind `ingest`. Limits: 2 MB of text a document (413), 20 MB a file (413), 10,000 documents a collection (400 document_limit_exceeded), the plan's storage (402 storage_limit_exceeded).",
      request: {
        params: CollectionParam,
        headers: IngestIdempotencyHeader,
        // Not `required`: each content type's validator then runs only for its own type (the handler answers 415 for others).
        body: {
          content: {
            "application/json": { schema: IngestRequestSchema },
            "multipart/form-data": { schema: UploadSchema },
          },
        },
      },
      responses: {
        200: jsonResponse(IngestResultDto, "What was written"),
        ...errorResponses(
          "invalid_request",
          "document_limit_exceeded",
          "unauthorized",
          "insufficient_credits",
          "storage_limit_exceeded",
          "not_found",
          "payload_too_large",
          "unsupported_media_type",
          "idempotency_key_reused",
        ),
      },
    }),
    async (c) => {
      const { id } = c.req.valid("param");
      const type = (c.req.header("Content-Type") ?? "").toLowerCase();
      let documents;
      // Each content type was validated by its own schema (the union the types give is per request).
      if (type.startsWith("application/json")) documents = (c.req.valid("json") as z.infer<typeof IngestRequestSchema>).documents;
      else documents = await documentsFromFiles(uploadedFiles(c.req.valid("form") as { file?: unknown }));
      return c.json(await ingest(c.var.deps.db, c.var.user.id, id, documents, c.req.header("Idempotency-Key")), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}/documents",
      tags,
      security,
      summary: "A collection's documents, newest first (without their text)",
      request: { params: CollectionParam, query: PagingQuery },
      responses: { 200: jsonResponse(z.array(DocumentSummaryDto), "Documents"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(await listDocuments(c.var.deps.db, c.var.user.id, c.req.valid("param").id, c.req.valid("query")), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}/documents/{doc_id}",
      tags,
      security,
      summary: "A document with its text",
      request: { params: DocumentParam },
      responses: { 200: jsonResponse(DocumentDto, "The document"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      const { id, doc_id } = c.req.valid("param");
      return c.json(await getDocument(c.var.deps.db, c.var.user.id, id, doc_id), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/collections/{id}/documents/{doc_id}",
      tags,
      security,
      summary: "Delete a document",
      request: { params: DocumentParam },
      responses: { 200: jsonResponse(Deleted, "Deleted"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      const { id, doc_id } = c.req.valid("param");
      await deleteDocument(c.var.deps.db, c.var.user.id, id, doc_id);
      return c.json({ deleted: true as const }, 200);
    },
  );
}
