import type { z } from "@hono/zod-openapi";
import type {
  CollectionDto,
  CreateCollectionSchema,
  DocumentDto,
  DocumentSummaryDto,
  IngestRequestSchema,
  IngestResultDto,
  UpdateCollectionSchema,
} from "../research/service";

/**
 * The examples the reference shows for collections, typed by their schemas here and validated
 * against the published schemas by test/openapi-reference.test.ts.
 */

type Input<T extends z.ZodType> = z.input<T>;

const COLLECTION_ID = "f5bab07c-68df-4a5f-9189-db2f2c32de8d";
const DOCUMENT_ID = "50b00c2b-137a-4bca-9978-ad561e83bffd";
const REFUND_TEXT = "# Refunds\n\nCustomers may ask for a refund within 30 days.";

export const createCollectionExample = { name: "Product handbook", description: "Policies and how-tos from our support site." } satisfies Input<
  typeof CreateCollectionSchema
>;

export const updateCollectionExample = { description: "Policies, how-tos and release notes." } satisfies Input<typeof UpdateCollectionSchema>;

export const collectionExample = {
  id: COLLECTION_ID,
  name: "Product handbook",
  description: "Policies and how-tos from our support site.",
  document_count: 1,
  bytes: 57,
  created_at: "2026-11-23T18:00:06.431Z",
  updated_at: "2026-11-23T18:00:06.509Z",
} satisfies Input<typeof CollectionDto>;

export const ingestRequestExample = {
  documents: [{ title: "Refund policy", text: REFUND_TEXT, url: "https://docs.example.com/refunds", metadata: { team: "support" } }],
} satisfies Input<typeof IngestRequestSchema>;

export const ingestResultExample = {
  ingested: 1,
  documents: [{ id: DOCUMENT_ID, title: "Refund policy", url: "https://docs.example.com/refunds", bytes: 57 }],
} satisfies Input<typeof IngestResultDto>;

export const documentSummaryExample = {
  id: DOCUMENT_ID,
  title: "Refund policy",
  url: "https://docs.example.com/refunds",
  bytes: 57,
  metadata: { team: "support" },
  created_at: "2026-11-23T18:00:06.509Z",
  updated_at: "2026-11-23T18:00:06.509Z",
} satisfies Input<typeof DocumentSummaryDto>;

export const documentExample = { ...documentSummaryExample, text: REFUND_TEXT } satisfies Input<typeof DocumentDto>;
