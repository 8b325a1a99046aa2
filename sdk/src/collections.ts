import type { Http } from "./http.js";
import type { Collection, CollectionDocument, CollectionDocumentSummary, DocumentInput, IngestResult } from "./types.js";

/** A file to upload: a `File`, or a name (its extension gives the type: .pdf .html .md .txt .jsonl) and its content. */
export type UploadFile = File | { name: string; data: Blob | ArrayBuffer | Uint8Array | string; type?: string };

export interface Paging {
  limit?: number;
  offset?: number;
}

interface RequestOptions {
  signal?: AbortSignal;
}

interface IngestOptions extends RequestOptions {
  /** Default: a new random key per call, sent on each of its retries, so a retried upload writes and charges once. */
  idempotencyKey?: string;
}

function asFile(file: UploadFile): File {
  if (file instanceof File) return file;
  // Every one of these is a valid part; the cast spans the DOM and Workers typings of a part.
  const parts = [file.data] as unknown as ConstructorParameters<typeof File>[0];
  return new File(parts, file.name, file.type ? { type: file.type } : undefined);
}

/**
 * Your collections of documents (research searches them when a request names them). Ingest is
 * charged (2 credits a MB of text, at least 1 a call); documents with the same url (or title
 * without a url) replace each other.
 */
export class Collections {
  constructor(private readonly http: Http) {}

  async create(input: { name: string; description?: string }, options: RequestOptions = {}): Promise<Collection> {
    return (await this.http.call(options.signal, () => this.http.api.POST("/v1/collections", { body: input, signal: options.signal }))).data;
  }

  async list(paging: Paging = {}, options: RequestOptions = {}): Promise<Collection[]> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/collections", { params: { query: paging }, signal: options.signal }))).data;
  }

  async get(id: string, options: RequestOptions = {}): Promise<Collection> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/collections/{id}", { params: { path: { id } }, signal: options.signal }))).data;
  }

  async update(id: string, changes: { name?: string; description?: string | null }, options: RequestOptions = {}): Promise<Collection> {
    return (await this.http.call(options.signal, () => this.http.api.PATCH("/v1/collections/{id}", { params: { path: { id } }, body: changes, signal: options.signal }))).data;
  }

  /** Deletes the collection and its documents. */
  async delete(id: string, options: RequestOptions = {}): Promise<void> {
    await this.http.call(options.signal, () => this.http.api.DELETE("/v1/collections/{id}", { params: { path: { id } }, signal: options.signal }));
  }

  /** Adds (or replaces) up to 100 documents given as text. */
  async addDocuments(id: string, documents: DocumentInput[], options: IngestOptions = {}): Promise<IngestResult> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    return (
      await this.http.call(options.signal, () =>
        this.http.api.POST("/v1/collections/{id}/documents", {
          params: { path: { id }, header: { "idempotency-key": key } },
          body: { documents },
          signal: options.signal,
        }),
      )
    ).data;
  }

  /** Uploads files (multipart, one `file` part each; 20 MB a file): their text is extracted and indexed. */
  async upload(id: string, files: UploadFile[], options: IngestOptions = {}): Promise<IngestResult> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    const form = new FormData();
    for (const file of files) form.append("file", asFile(file));
    return (
      await this.http.call(options.signal, () =>
        this.http.api.POST("/v1/collections/{id}/documents", {
          params: { path: { id }, header: { "idempotency-key": key } },
          // The typed body is the JSON variant; the multipart one is sent as the FormData itself.
          body: {} as never,
          bodySerializer: () => form,
          signal: options.signal,
        }),
      )
    ).data;
  }

  /** The collection's documents, newest first, without their text. */
  async documents(id: string, paging: Paging = {}, options: RequestOptions = {}): Promise<CollectionDocumentSummary[]> {
    return (await this.http.call(options.signal, () => this.http.api.GET("/v1/collections/{id}/documents", { params: { path: { id }, query: paging }, signal: options.signal }))).data;
  }

  async document(id: string, documentId: string, options: RequestOptions = {}): Promise<CollectionDocument> {
    return (
      await this.http.call(options.signal, () =>
        this.http.api.GET("/v1/collections/{id}/documents/{doc_id}", { params: { path: { id, doc_id: documentId } }, signal: options.signal }),
      )
    ).data;
  }

  async deleteDocument(id: string, documentId: string, options: RequestOptions = {}): Promise<void> {
    await this.http.call(options.signal, () =>
      this.http.api.DELETE("/v1/collections/{id}/documents/{doc_id}", { params: { path: { id, doc_id: documentId } }, signal: options.signal }),
    );
  }
}
