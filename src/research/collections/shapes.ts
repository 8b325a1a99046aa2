import { z } from "@hono/zod-openapi";

/** The published shapes of collections and their documents (the single source of /openapi.json and the types). */

export const CollectionDto = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    document_count: z.int().openapi({ description: "Documents in the collection." }),
    bytes: z.int().openapi({ description: "UTF-8 bytes of the documents' text." }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("Collection");
export type CollectionDto = z.infer<typeof CollectionDto>;

export const CreateCollectionSchema = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ description: "A name you recognise it by; sources found in it show it as their domain when they have no url." }),
    description: z.string().trim().max(2000).optional(),
  })
  .strict()
  .openapi("CreateCollectionRequest");

export const UpdateCollectionSchema = z
  .object({ name: z.string().trim().min(1).max(200).optional(), description: z.string().trim().max(2000).nullable().optional() })
  .strict()
  .refine((body) => body.name !== undefined || body.description !== undefined, { error: "Give name or description." })
  .openapi("UpdateCollectionRequest");

/** Text of one document at most (UTF-8 bytes): beyond it, 413 payload_too_large. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** Documents in one ingest call at most. */
export const MAX_DOCUMENTS_PER_CALL = 100;

export const DocumentInputSchema = z
  .object({
    title: z.string().trim().min(1).max(500),
    text: z.string().refine((text) => text.trim().length > 0, { error: "text must not be empty" }),
    url: z.url({ protocol: /^https?$/ }).max(2048).optional().openapi({ description: "Where the document lives; citations show it. Re-posting the same url replaces the document." }),
    metadata: z.record(z.string(), z.unknown()).optional().openapi({ description: "Anything you want back with the document (kept as given, at most 10 KB)." }),
  })
  .strict()
  .openapi("DocumentInput");
export type DocumentInput = z.infer<typeof DocumentInputSchema>;

export const IngestRequestSchema = z
  .object({ documents: z.array(DocumentInputSchema).min(1).max(MAX_DOCUMENTS_PER_CALL) })
  .strict()
  .openapi("IngestRequest", { description: "Up to 100 documents. A document with the url (or, without a url, the title) of one already in the collection replaces it." });

export const DocumentSummaryDto = z
  .object({
    id: z.uuid(),
    title: z.string(),
    url: z.string().nullable(),
    bytes: z.int(),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .openapi("CollectionDocumentSummary");
export type DocumentSummaryDto = z.infer<typeof DocumentSummaryDto>;

export const DocumentDto = DocumentSummaryDto.extend({ text: z.string() }).openapi("CollectionDocument");

export const IngestResultDto = z
  .object({
    ingested: z.int().openapi({ description: "Documents written (new or replaced)." }),
    documents: z.array(z.object({ id: z.uuid(), title: z.string(), url: z.string().nullable(), bytes: z.int() })),
  })
  .openapi("IngestResult");
export type IngestResultDto = z.infer<typeof IngestResultDto>;
