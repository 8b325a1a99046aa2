import type { ApiPromise } from "./api-promise.js";
import type { Http, RequestOptions } from "./http.js";
import type { PagePromise, Paging } from "./pagination.js";
import type { Collection, CollectionDocument, CollectionDocumentSummary, DocumentInput, IngestResult } from "./types.js";

/** A file to upload: a `File`, or a name (its extension gives the type: .pdf .html .md .txt .jsonl) and its content. */
export type UploadFile = File | { name: string; data: Blob | ArrayBuffer | Uint8Array | string; type?: string };

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

  create(input: { name: string; description?: string }, options: RequestOptions = {}): ApiPromise<Collection> {
    return this.http.request(options, (init) => this.http.api.POST("/v1/collections", { body: input, ...init }));
  }

  /** Your collections, newest first: awaited, one page; with `for await`, all of them. */
  list(paging: Paging = {}, options: RequestOptions = {}): PagePromise<Collection> {
    return this.http.page(options, (next, init) => this.http.api.GET("/v1/collections", { params: { query: { ...paging, ...next } }, ...init }));
  }

  get(id: string, options: RequestOptions = {}): ApiPromise<Collection> {
    return this.http.request(options, (init) => this.http.api.GET("/v1/collections/{id}", { params: { path: { id } }, ...init }));
  }

  update(id: string, changes: { name?: string; description?: string | null }, options: RequestOptions = {}): ApiPromise<Collection> {
    return this.http.request(options, (init) => this.http.api.PATCH("/v1/collections/{id}", { params: { path: { id } }, body: changes, ...init }));
  }

  /** Deletes the collection and its documents. */
  delete(id: string, options: RequestOptions = {}): ApiPromise<{ deleted: true }> {
    return this.http.request(options, (init) => this.http.api.DELETE("/v1/collections/{id}", { params: { path: { id } }, ...init }));
  }

  /** Adds (or replaces) up to 100 documents given as text. */
  addDocuments(id: string, documents: DocumentInput[], options: IngestOptions = {}): ApiPromise<IngestResult> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    return this.http.request(options, (init) =>
      this.http.api.POST("/v1/collections/{id}/documents", { params: { path: { id }, header: { "idempotency-key": key } }, body: { documents }, ...init }),
    );
  }

  /** Uploads files (multipart, one `file` part each; 20 MB a file): their text is extracted and indexed. */
  upload(id: string, files: UploadFile[], options: IngestOptions = {}): ApiPromise<IngestResult> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    const form = new FormData();
    for (const file of files) form.append("file", asFile(file));
    return this.http.request(options, (init) =>
      this.http.api.POST("/v1/collections/{id}/documents", {
        params: { path: { id }, header: { "idempotency-key": key } },
        // The typed body is the JSON variant; the multipart one is sent as the FormData itself.
        body: {} as never,
        bodySerializer: () => form,
        ...init,
      }),
    );
  }

  /** The collection's documents, newest first, without their text: awaited, one page; with `for await`, all of them. */
  documents(id: string, paging: Paging = {}, options: RequestOptions = {}): PagePromise<CollectionDocumentSummary> {
    return this.http.page(options, (next, init) =>
      this.http.api.GET("/v1/collections/{id}/documents", { params: { path: { id }, query: { ...paging, ...next } }, ...init }),
    );
  }

  document(id: string, documentId: string, options: RequestOptions = {}): ApiPromise<CollectionDocument> {
    return this.http.request(options, (init) =>
      this.http.api.GET("/v1/collections/{id}/documents/{doc_id}", { params: { path: { id, doc_id: documentId } }, ...init }),
    );
  }

  deleteDocument(id: string, documentId: string, options: RequestOptions = {}): ApiPromise<{ deleted: true }> {
    return this.http.request(options, (init) =>
      this.http.api.DELETE("/v1/collections/{id}/documents/{doc_id}", { params: { path: { id, doc_id: documentId } }, ...init }),
    );
  }
}
