import { peek, pageWithLink } from "../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { createMiddleware } from "hono/factory";
import { readBodyWithin } from "../http/bounded-body";
import { type createRouter, errorResponses, jsonBody, jsonResponse, pageResponse } from "../http/openapi";
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
  UPLOAD_LIMITS,
} from "../research/service";
import {
  collectionExample,
  createCollectionExample,
  documentExample,
  documentSummaryExample,
  ingestRequestExample,
  ingestResultExample,
  updateCollectionExample,
} from "./collection-examples";

const CollectionParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).openapi({
    param: { name: "id", in: "path" },
    description: "The collection's id. Another account's collection is 404, like an unknown id.",
    example: "f5bab07c-68df-4a5f-9189-db2f2c32de8d",
  }),
});
const DocumentParam = CollectionParam.extend({
  doc_id: z.uuid({ error: "doc_id must be a UUID" }).openapi({
    param: { name: "doc_id", in: "path" },
    description: "The document's id, within that collection.",
    example: "50b00c2b-137a-4bca-9978-ad561e83bffd",
  }),
});
const IngestIdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({
    description:
      "Makes a retry safe: the same key and body return the first answer, written and charged once (the key does not expire); the same key with another body is 422 `idempotency_key_reused`. Use a new key for every distinct upload (a UUID, or your own id for the batch).",
  }),
});

/** Files to upload: one or more `file` parts. */
const UploadSchema = z
  .object({
    file: z.unknown().openapi({
      type: "array",
      items: { type: "string", format: "binary" },
      description:
        "One or more files: .txt, .md, .html, .pdf (text extracted; at most 2,000 pages) or .jsonl (one document a line); 20 MB each and 21 MB a call at most.",
    }),
  })
  .openapi("DocumentUpload", { description: "Files to add, as multipart/form-data `file` parts." });

/**
 * Before the body validators: only JSON or multipart bodies are read here (415 for anything else),
 * and a body over the bound is refused (413): by its Content-Length before it is read, and without
 * one (chunked) as it streams, at the first chunk past the bound. The validators then parse the
 * body read here (the request is replaced by one that carries it).
 */
const ingestContentType = createMiddleware(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith("application/json") && !type.startsWith("multipart/form-data")) {
    throw new ApiError("unsupported_media_type", "Send application/json ({documents: [...]}) or multipart/form-data with `file` parts.");
  }
  const length = Number(c.req.header("Content-Length") ?? 0);
  if (length > UPLOAD_LIMITS.requestBytes) {
    throw new ApiError(
      "payload_too_large",
      `The request body is ${length} bytes; one call may send at most ${UPLOAD_LIMITS.requestBytes} (21 MB). Send the files in several calls.`,
    );
  }
  const body = await readBodyWithin(c.req.raw.body, UPLOAD_LIMITS.requestBytes);
  if (!body) {
    throw new ApiError(
      "payload_too_large",
      `The request body is over ${UPLOAD_LIMITS.requestBytes} bytes (21 MB), the most one call may send; it was not read further. Send the files in several calls.`,
    );
  }
  c.req.raw = new Request(c.req.raw, { body });
  await next();
});

function uploadedFiles(form: { file?: unknown }): File[] {
  return [form.file].flat().filter((part): part is File => part instanceof File);
}

const Deleted = z
  .object({ deleted: z.literal(true).openapi({ description: "Always true: it is gone." }) })
  .openapi("Deleted", { description: "A deletion that happened." });

/** The collection routes: the same under /v1 (API key) and /api (JWT, for the dashboard). */
export interface CollectionSurface {
  tags: string[];
  security: { [scheme: string]: string[] }[];
  /** Inserted in this surface's operationIds (`createCollection`, `createDashboardCollection`): one id per operation and surface. */
  operationQualifier: "" | "Dashboard";
  /** A sentence ending each description: how this surface differs (empty on the public API). */
  surfaceNote: string;
}

export function addCollectionRoutes(router: ReturnType<typeof createRouter>, surface: CollectionSurface): void {
  const { tags, security, operationQualifier: q } = surface;
  const note = surface.surfaceNote ? ` ${surface.surfaceNote}` : "";
  router.openapi(
    createRoute({
      method: "post",
      path: "/collections",
      operationId: `create${q}Collection`,
      tags,
      security,
      summary: "Create a collection of your own documents",
      description:
        "Creates an empty collection. Add documents to it, then name its id in a research request's `collections` to research them (alone, or with `web: true` beside the web). Free." +
        note,
      request: { body: jsonBody(CreateCollectionSchema, createCollectionExample) },
      responses: {
        200: jsonResponse(CollectionDto, "The collection", { ...collectionExample, document_count: 0, bytes: 0, updated_at: collectionExample.created_at }),
        ...errorResponses("invalid_request", "unauthorized"),
      },
    }),
    async (c) => c.json(await createCollection(c.get("deps").db, c.get("user").id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections",
      operationId: `list${q}Collections`,
      tags,
      security,
      summary: "List your collections",
      description: `Lists your collections with their document counts and sizes, newest first; page with \`limit\` and \`offset\`. Free.${note}`,
      request: { query: PagingQuery },
      responses: {
        200: pageResponse(z.array(CollectionDto), "Collections, newest first", [collectionExample]),
        ...errorResponses("invalid_request", "unauthorized"),
      },
    }),
    async (c) => {
      const page = c.req.valid("query");
      return c.json(pageWithLink(c, await listCollections(c.get("deps").db, c.get("user").id, peek(page)), page), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}",
      operationId: `get${q}Collection`,
      tags,
      security,
      summary: "Get a collection",
      description: `Reads one of your collections: its name, description, document count and size. Free.${note}`,
      request: { params: CollectionParam },
      responses: { 200: jsonResponse(CollectionDto, "The collection", collectionExample), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(collectionDto(await ownCollection(c.get("deps").db, c.get("user").id, c.req.valid("param").id)), 200),
  );

  router.openapi(
    createRoute({
      method: "patch",
      path: "/collections/{id}",
      operationId: `update${q}Collection`,
      tags,
      security,
      summary: "Update a collection",
      description: `Changes a collection's name, description or both; fields left out stay as they are. Free.${note}`,
      request: { params: CollectionParam, body: jsonBody(UpdateCollectionSchema, updateCollectionExample) },
      responses: {
        200: jsonResponse(CollectionDto, "The collection", {
          ...collectionExample,
          description: updateCollectionExample.description,
          updated_at: "2026-11-24T09:12:40.118Z",
        }),
        ...errorResponses("invalid_request", "unauthorized", "not_found"),
      },
    }),
    async (c) => c.json(await updateCollection(c.get("deps").db, c.get("user").id, c.req.valid("param").id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/collections/{id}",
      operationId: `delete${q}Collection`,
      tags,
      security,
      summary: "Delete a collection",
      description:
        "Deletes a collection with all its documents, at once and for good; their storage is freed. Credits paid to add them are not refunded. A job already reading them finishes with what it read. Free." +
        note,
      request: { params: CollectionParam },
      responses: { 200: jsonResponse(Deleted, "Deleted", { deleted: true }), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      await deleteCollection(c.get("deps").db, c.get("user").id, c.req.valid("param").id);
      return c.json({ deleted: true as const }, 200);
    },
  );

  router.openapi(
    createRoute({
      method: "post",
      path: "/collections/{id}/documents",
      operationId: `add${q}CollectionDocuments`,
      tags,
      security,
      middleware: [ingestContentType] as const,
      summary: "Add documents to a collection",
      description:
        "Adds documents to a collection, as JSON (`{documents: [...]}`, up to 100) or as uploaded files (multipart `file` parts: `.txt`, `.md`, `.html`, `.pdf` with its text extracted, or `.jsonl` with one document a line). A document with the url of one already there (or, without a url, its title) replaces it and keeps its id. " +
        "Charged at the `ingest_mb` op price (2 credits a MB of text, at least 1 credit a call), as a ledger entry of kind `ingest`; 402 `insufficient_credits` if the balance is short. Limits: 2 MB of text a document (413), 20 MB a file and 21 MB a request (413; a body sent without Content-Length is refused as it arrives, at the first chunk past 21 MB), a PDF of at most 2,000 pages read within 20 s a call whose compressed streams decode to at most 8 MB each and 64 MB in all, each time one is read (413), 10,000 documents a collection (400 `document_limit_exceeded`), the plan's storage (402 `storage_limit_exceeded`; both hold under concurrent calls: of calls that together pass a bound, those that would pass it are refused whole); other file types are 415. All or nothing: on any error nothing is written or charged. Send an `Idempotency-Key` to make retries safe." +
        note,
      request: {
        params: CollectionParam,
        headers: IngestIdempotencyHeader,
        // Not `required`: each content type's validator then runs only for its own type (the handler answers 415 for others).
        body: {
          content: {
            "application/json": { schema: IngestRequestSchema, example: ingestRequestExample },
            "multipart/form-data": { schema: UploadSchema },
          },
        },
      },
      responses: {
        200: jsonResponse(IngestResultDto, "What was written", ingestResultExample),
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
      return c.json(await ingest(c.get("deps").db, c.get("user").id, id, documents, c.req.header("Idempotency-Key")), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}/documents",
      operationId: `list${q}CollectionDocuments`,
      tags,
      security,
      summary: "List a collection's documents",
      description:
        "Lists the documents of one of your collections, newest first, without their text (read a document for it); page with `limit` and `offset`. Free." +
        note,
      request: { params: CollectionParam, query: PagingQuery },
      responses: {
        200: pageResponse(z.array(DocumentSummaryDto), "Documents, newest first", [documentSummaryExample]),
        ...errorResponses("invalid_request", "unauthorized", "not_found"),
      },
    }),
    async (c) => {
      const page = c.req.valid("query");
      return c.json(pageWithLink(c, await listDocuments(c.get("deps").db, c.get("user").id, c.req.valid("param").id, peek(page)), page), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}/documents/{doc_id}",
      operationId: `get${q}CollectionDocument`,
      tags,
      security,
      summary: "Get a document with its text",
      description: `Reads one document of one of your collections, with its full text as research reads and quotes it. Free.${note}`,
      request: { params: DocumentParam },
      responses: { 200: jsonResponse(DocumentDto, "The document", documentExample), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      const { id, doc_id } = c.req.valid("param");
      return c.json(await getDocument(c.get("deps").db, c.get("user").id, id, doc_id), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/collections/{id}/documents/{doc_id}",
      operationId: `delete${q}CollectionDocument`,
      tags,
      security,
      summary: "Delete a document",
      description: `Deletes one document from a collection and frees its storage; the credits paid to add it are not refunded. Free.${note}`,
      request: { params: DocumentParam },
      responses: { 200: jsonResponse(Deleted, "Deleted", { deleted: true }), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      const { id, doc_id } = c.req.valid("param");
      await deleteDocument(c.get("deps").db, c.get("user").id, id, doc_id);
      return c.json({ deleted: true as const }, 200);
    },
  );
}
