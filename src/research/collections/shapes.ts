import { z } from "@hono/zod-openapi";

/** The published shapes of collections and their documents (the single source of /openapi.json and the types). */

export const CollectionDto = z
  .object({
    id: z.uuid().openapi({ description: "The collection's id: name it in a research request's `collections`." }),
    name: z.string().openapi({ description: "The collection's name; a document without a url shows it as its source's domain." }),
    description: z.string().nullable().openapi({ description: "What the collection holds; null when none was given." }),
    document_count: z.int().openapi({ description: "Documents in the collection." }),
    bytes: z.int().openapi({ description: "UTF-8 bytes of the documents' text (what counts against the plan's storage)." }),
    created_at: z.iso.datetime().openapi({ description: "When the collection was created (UTC)." }),
    updated_at: z.iso.datetime().openapi({ description: "When the collection or its documents last changed (UTC)." }),
  })
  .openapi("Collection", { description: "A collection of your own documents." });
export type CollectionDto = z.infer<typeof CollectionDto>;

export const CreateCollectionSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .openapi({ description: "A name you recognise it by; sources found in it show it as their domain when they have no url." }),
    description: z.string().trim().max(2000).optional().openapi({ description: "What the collection holds, at most 2000 characters." }),
  })
  .strict()
  .openapi("CreateCollectionRequest", { description: "A new collection. Free: only adding documents is charged." });

export const UpdateCollectionSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional().openapi({ description: "The new name, 1 to 200 characters. Absent: unchanged." }),
    description: z
      .string()
      .trim()
      .max(2000)
      .nullable()
      .optional()
      .openapi({ description: "The new description, at most 2000 characters; null removes it. Absent: unchanged." }),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.description !== undefined, { error: "Give name or description." })
  .openapi("UpdateCollectionRequest", { description: "What to change: `name`, `description` or both (at least one)." });

/** Text of one document at most (UTF-8 bytes): beyond it, 413 payload_too_large. */
export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;
/** Documents in one ingest call at most. */
export const MAX_DOCUMENTS_PER_CALL = 100;

export const DocumentInputSchema = z
  .object({
    title: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .openapi({ description: "The document's title, 1 to 500 characters; without a url, re-posting the same title replaces the document." }),
    text: z
      .string()
      .refine((text) => text.trim().length > 0, { error: "text must not be empty" })
      .openapi({ description: "The document's text (plain text or Markdown; Markdown headings split it into sections), at most 2 MB of UTF-8 (413 beyond)." }),
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .openapi({ description: "Where the document lives; citations show it. Re-posting the same url replaces the document." }),
    metadata: z.record(z.string(), z.unknown()).optional().openapi({
      description:
        "Anything you want back with the document (kept as given, at most 10 KB). Two keys are also read as a web page's metadata is: `published_at` (an ISO 8601 date or time) and `author` (a name or a list of names) become the source's `published_at` and `author` when a job cites it, and the brief may cite them.",
    }),
  })
  .strict()
  .openapi("DocumentInput", { description: "A document to add." });
export type DocumentInput = z.infer<typeof DocumentInputSchema>;

export const IngestRequestSchema = z
  .object({ documents: z.array(DocumentInputSchema).min(1).max(MAX_DOCUMENTS_PER_CALL).openapi({ description: "The documents, 1 to 100." }) })
  .strict()
  .openapi("IngestRequest", {
    description: "Up to 100 documents. A document with the url (or, without a url, the title) of one already in the collection replaces it.",
  });

export const DocumentSummaryDto = z
  .object({
    id: z.uuid().openapi({ description: "The document's id." }),
    title: z.string().openapi({ description: "The document's title." }),
    url: z
      .string()
      .nullable()
      .openapi({ description: "The url it was given; null without one (citations then show `collection://<collection id>/<document id>`)." }),
    bytes: z.int().openapi({ description: "UTF-8 bytes of its text." }),
    metadata: z.record(z.string(), z.unknown()).nullable().openapi({ description: "The metadata it was given, as given; null without any." }),
    created_at: z.iso.datetime().openapi({ description: "When the document was first added (UTC)." }),
    updated_at: z.iso.datetime().openapi({ description: "When it was last replaced (UTC)." }),
  })
  .openapi("CollectionDocumentSummary", { description: "A document of a collection, without its text." });
export type DocumentSummaryDto = z.infer<typeof DocumentSummaryDto>;

export const DocumentDto = DocumentSummaryDto.extend({
  text: z.string().openapi({ description: "The document's text as it was added, trimmed (citations quote it)." }),
}).openapi("CollectionDocument", { description: "A document of a collection, with its text." });

export const IngestResultDto = z
  .object({
    ingested: z.int().openapi({ description: "Documents written (new or replaced)." }),
    documents: z
      .array(
        z.object({
          id: z.uuid().openapi({ description: "The document's id (a replaced document keeps its id)." }),
          title: z.string().openapi({ description: "Its title." }),
          url: z.string().nullable().openapi({ description: "Its url; null without one." }),
          bytes: z.int().openapi({ description: "UTF-8 bytes of its text (what was charged for)." }),
        }),
      )
      .openapi({ description: "Each document written, in the order sent (a url or title sent twice in one call is written once: the last copy)." }),
  })
  .openapi("IngestResult", { description: "What an ingest call wrote." });
export type IngestResultDto = z.infer<typeof IngestResultDto>;
