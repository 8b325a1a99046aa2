/** Loading the evaluation corpus through the admin endpoint POST /api/admin/corpus. */
import type { ApiClient } from "./client";
import type { CorpusDocument } from "./dataset";

export const CORPUS_BATCH = 50;

export async function uploadCorpus(api: ApiClient, accessToken: string, documents: CorpusDocument[], onBatch?: (done: number) => void): Promise<number> {
  let ingested = 0;
  for (let start = 0; start < documents.length; start += CORPUS_BATCH) {
    const batch = documents.slice(start, start + CORPUS_BATCH);
    const { body } = await api.post<{ ingested: number }>("/api/admin/corpus", { documents: batch }, accessToken);
    ingested += body.ingested;
    onBatch?.(start + batch.length);
  }
  return ingested;
}

export interface CorpusStats {
  documents: number;
  domains: { domain: string; documents: number }[];
}

export async function corpusStats(api: ApiClient, accessToken: string): Promise<CorpusStats> {
  return (await api.get<CorpusStats>("/api/admin/corpus/stats", accessToken)).body;
}

/** The documents into a new collection of the key's owner, through the public API (what a customer does). */
export async function uploadToCollection(api: ApiClient, apiKey: string, documents: CorpusDocument[]): Promise<{ id: string; ingested: number }> {
  const { body: collection } = await api.post<{ id: string }>("/v1/collections", { name: "Eval documents" }, apiKey);
  let ingested = 0;
  for (let start = 0; start < documents.length; start += 100) {
    const batch = documents.slice(start, start + 100).map((doc) => ({ title: doc.title, text: doc.text, url: doc.url }));
    const { body } = await api.post<{ ingested: number }>(`/v1/collections/${collection.id}/documents`, { documents: batch }, apiKey);
    ingested += body.ingested;
  }
  return { id: collection.id, ingested };
}
