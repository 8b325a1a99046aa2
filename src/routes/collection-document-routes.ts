import { peek, pageWithLink } from "../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { type createRouter, errorResponses, jsonResponse, pageResponse } from "../http/openapi";
import { PagingQuery } from "../lib/paging";
import {
  deleteDocument,
  documentsFromFiles,
  DocumentDto,
  DocumentSummaryDto,
  getDocument,
  IngestRequestSchema,
  IngestResultDto,
  ingest,
  listDocuments,
} from "../research/service";
import { documentExample, documentSummaryExample, ingestRequestExample, ingestResultExample } from "./collection-examples";
import { CollectionParam, type CollectionSurface, Deleted, DocumentParam, IngestIdempotencyHeader, UploadSchema } from "./collection-schemas";
import { ingestContentType, uploadedFiles } from "./collection-upload";

/** The routes of a collection's documents (add, list, read, delete), on the surface addCollectionRoutes is given. */
export function addDocumentRoutes(router: ReturnType<typeof createRouter>, surface: CollectionSurface): void {
  const { tags, security, operationQualifier: q } = surface;
  const note = surface.surfaceNote ? ` ${surface.surfaceNote}` : "";
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
