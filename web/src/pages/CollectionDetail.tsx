import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router-dom";
import { api, ApiError, authedFetch, dataOf, type Schemas } from "../api/client";
import { useConfirm } from "../components/ConfirmDialog";
import { actionsColumn, type Column, DataTable } from "../components/DataTable";
import { ErrorNotice } from "../components/ErrorNotice";
import { Loading } from "../components/Loading";
import { Pager, pageOf, usePage } from "../components/Pager";
import { byteSize, count, when } from "../format";

const ACCEPTED = ".pdf,.html,.htm,.md,.markdown,.txt,.jsonl";

/**
 * One collection: upload files to it (multipart, as the API takes them), its documents, deleting a
 * document or the whole collection, and a link that opens the playground on it.
 */
export function CollectionDetail() {
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const paging = usePage();
  const files = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<unknown>(null);
  const [added, setAdded] = useState<Schemas["IngestResult"] | null>(null);
  const { confirm, dialog } = useConfirm();
  const collection = useQuery({ queryKey: ["collection", id], queryFn: () => dataOf(api.GET("/api/collections/{id}", { params: { path: { id } } })) });
  const documents = useQuery({
    queryKey: ["collection", id, "documents", paging.offset],
    queryFn: () => dataOf(api.GET("/api/collections/{id}/documents", { params: { path: { id }, query: paging.query } })),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["collection", id] });
    void queryClient.invalidateQueries({ queryKey: ["collections"] });
    void queryClient.invalidateQueries({ queryKey: ["balance"] });
  };
  const { rows, hasNext } = pageOf(documents.data ?? [], paging.size);

  async function upload(event: FormEvent) {
    event.preventDefault();
    const chosen = [...(files.current?.files ?? [])];
    if (chosen.length === 0) return;
    const form = new FormData();
    for (const file of chosen) form.append("file", file);
    setBusy(true);
    setProblem(null);
    try {
      // Multipart straight through fetch (the typed client speaks JSON); one key per upload makes a retry safe.
      const response = await authedFetch(
        new Request(`/api/collections/${id}/documents`, { method: "POST", body: form, headers: { "Idempotency-Key": crypto.randomUUID() } }),
      );
      const body: unknown = await response.json().catch(() => null);
      if (!response.ok) throw ApiError.from(body, response);
      setAdded(body as Schemas["IngestResult"]);
      if (files.current) files.current.value = "";
      paging.reset();
      refresh();
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  async function removeDocument(docId: string, title: string) {
    const confirmed = await confirm({
      title: `Delete "${title}"?`,
      message: "It leaves this collection: research will no longer find it.",
      confirmLabel: "Delete",
    });
    if (!confirmed) return;
    try {
      await dataOf(api.DELETE("/api/collections/{id}/documents/{doc_id}", { params: { path: { id, doc_id: docId } } }));
      refresh();
    } catch (error) {
      setProblem(error);
    }
  }

  async function removeCollection() {
    const confirmed = await confirm({
      title: `Delete the collection "${collection.data?.name}"?`,
      message: "All its documents are deleted with it.",
      confirmLabel: "Delete the collection",
    });
    if (!confirmed) return;
    try {
      await dataOf(api.DELETE("/api/collections/{id}", { params: { path: { id } } }));
      void queryClient.invalidateQueries({ queryKey: ["collections"] });
      navigate("/collections");
    } catch (error) {
      setProblem(error);
    }
  }

  const columns: Column<Schemas["CollectionDocumentSummary"]>[] = [
    { header: "Title", kind: "title", cell: (doc) => <Link to={`/collections/${id}/documents/${doc.id}`}>{doc.title}</Link> },
    { header: "Text", cell: (doc) => byteSize(doc.bytes) },
    { header: "Added", cell: (doc) => when(doc.created_at) },
    actionsColumn((doc) => (
      <button type="button" aria-label={`Delete ${doc.title}`} onClick={() => removeDocument(doc.id, doc.title)}>
        Delete
      </button>
    )),
  ];

  return (
    <section aria-labelledby="collection-title">
      <p>
        <Link to="/collections">← All collections</Link>
      </p>
      <h1 id="collection-title">{collection.data?.name ?? "Collection"}</h1>
      {collection.isPending && <Loading what="the collection" />}
      <ErrorNotice error={collection.error ?? documents.error ?? problem} />
      {collection.data && (
        <>
          {collection.data.description && <p>{collection.data.description}</p>}
          <p className="muted">
            {count(collection.data.document_count)} document{collection.data.document_count === 1 ? "" : "s"} · {byteSize(collection.data.bytes)} of text ·{" "}
            <code>{id}</code>
          </p>
          <div className="row">
            <Link className="button-link" to={`/playground?collection=${id}`}>
              Research this collection
            </Link>
            <button type="button" className="secondary" onClick={removeCollection}>
              Delete the collection
            </button>
          </div>
          <form onSubmit={upload} aria-label="Upload documents" className="card">
            <label>
              Files to add
              <input ref={files} type="file" multiple accept={ACCEPTED} required />
            </label>
            <p className="muted">
              PDF (up to 2,000 pages), HTML, Markdown, text or JSON Lines, up to 20 MB each and 21 MB at once. A document with the same title (a file without a
              URL) replaces its earlier copy.
            </p>
            <button type="submit" disabled={busy}>
              {busy ? "Uploading…" : "Upload"}
            </button>
            {added && (
              <p role="status">
                Added {added.ingested} document{added.ingested === 1 ? "" : "s"}: {added.documents.map((doc) => doc.title).join(", ")}.
              </p>
            )}
          </form>
        </>
      )}
      <h2>Documents</h2>
      {documents.isPending && <Loading what="the documents" />}
      <DataTable
        columns={columns}
        rows={documents.data && rows}
        rowKey={(doc) => doc.id}
        caption="Documents of the collection"
        empty={<p className="muted">No documents yet.</p>}
      />
      <Pager page={paging} hasNext={hasNext} what="documents" />
      {dialog}
    </section>
  );
}
