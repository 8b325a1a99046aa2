import { z } from "@hono/zod-openapi";

// The path parameters, headers and bodies the collection routes share (collection-routes.ts,
// collection-document-routes.ts), and the surface both are added to (/v1 and /api).

export const CollectionParam = z.object({
  id: z.uuid({ error: "id must be a UUID" }).openapi({
    param: { name: "id", in: "path" },
    description: "The collection's id. Another account's collection is 404, like an unknown id.",
    example: "f5bab07c-68df-4a5f-9189-db2f2c32de8d",
  }),
});
export const DocumentParam = CollectionParam.extend({
  doc_id: z.uuid({ error: "doc_id must be a UUID" }).openapi({
    param: { name: "doc_id", in: "path" },
    description: "The document's id, within that collection.",
    example: "50b00c2b-137a-4bca-9978-ad561e83bffd",
  }),
});
export const IngestIdempotencyHeader = z.object({
  "idempotency-key": z.string().optional().openapi({
    description:
      "Makes a retry safe: the same key and body return the first answer, written and charged once (the key does not expire); the same key with another body is 422 `idempotency_key_reused`. Use a new key for every distinct upload (a UUID, or your own id for the batch).",
  }),
});

/** Files to upload: one or more `file` parts. */
export const UploadSchema = z
  .object({
    file: z.unknown().openapi({
      type: "array",
      items: { type: "string", format: "binary" },
      description:
        "One or more files: .txt, .md, .html, .pdf (text extracted; at most 2,000 pages) or .jsonl (one document a line); 20 MB each and 21 MB a call at most.",
    }),
  })
  .openapi("DocumentUpload", { description: "Files to add, as multipart/form-data `file` parts." });

export const Deleted = z
  .object({ deleted: z.literal(true).openapi({ description: "Always true: it is gone." }) })
  .openapi("Deleted", { description: "A deletion that happened." });

/** Where the collection routes are added: the same under /v1 (API key) and /api (JWT, for the dashboard). */
export interface CollectionSurface {
  tags: string[];
  security: { [scheme: string]: string[] }[];
  /** Inserted in this surface's operationIds (`createCollection`, `createDashboardCollection`): one id per operation and surface. */
  operationQualifier: "" | "Dashboard";
  /** A sentence ending each description: how this surface differs (empty on the public API). */
  surfaceNote: string;
}
