import { type CorpusDocumentInput, corpusStats, deleteCorpusDomain, ingestCorpusDocuments } from "../research/service";
import { type Actor, recordAudit } from "../services/audit";
import type { Deps } from "../services/deps";

/**
 * The local research corpus as admins fill it. Its documents are written by the corpus store in
 * batches of its own, so the audit row follows the write instead of sharing its batch.
 */

export async function ingestCorpus(deps: Pick<Deps, "db" | "env">, actor: Actor, documents: CorpusDocumentInput[]): Promise<number> {
  const ingested = await ingestCorpusDocuments(deps.env.DB, documents);
  await recordAudit(deps.db, actor, { action: "corpus.ingest", targetType: "corpus", details: { ingested, urls: documents.slice(0, 20).map((d) => d.url) } });
  return ingested;
}

export async function removeCorpusDomain(deps: Pick<Deps, "db" | "env">, actor: Actor, domain: string): Promise<number> {
  const deleted = await deleteCorpusDomain(deps.env.DB, domain);
  await recordAudit(deps.db, actor, { action: "corpus.delete_domain", targetType: "corpus", targetId: domain, details: { deleted } });
  return deleted;
}

export function corpusSize(deps: Pick<Deps, "env">) {
  return corpusStats(deps.env.DB);
}
