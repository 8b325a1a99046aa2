import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { api, dataOf } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";
import { Loading } from "../components/Loading";
import { byteSize, when } from "../format";

/**
 * One document of a collection with its text, as research reads and quotes it. A brief's source
 * `collection://<collection id>/<document id>` (a document without a url of its own) opens here,
 * since a browser cannot open that url.
 */
export function CollectionDocument() {
  const { id = "", docId = "" } = useParams();
  const collection = useQuery({ queryKey: ["collection", id], queryFn: () => dataOf(api.GET("/api/collections/{id}", { params: { path: { id } } })) });
  const doc = useQuery({
    queryKey: ["collection", id, "document", docId],
    queryFn: () => dataOf(api.GET("/api/collections/{id}/documents/{doc_id}", { params: { path: { id, doc_id: docId } } })),
  });
  return (
    <section aria-labelledby="document-title">
      <p>
        <Link to={`/collections/${id}`}>← {collection.data?.name ?? "The collection"}</Link>
      </p>
      <h1 id="document-title">{doc.data?.title ?? "Document"}</h1>
      {doc.isPending && <Loading what="the document" />}
      <ErrorNotice error={doc.error} />
      {doc.data && (
        <>
          <p className="muted">
            {byteSize(doc.data.bytes)} of text · added {when(doc.data.created_at)}
            {doc.data.url && (
              <>
                {" · "}
                <a href={doc.data.url} target="_blank" rel="noreferrer">
                  {doc.data.url}
                </a>
              </>
            )}
          </p>
          <article className="card document-text" aria-label="Document text">
            {doc.data.text}
          </article>
        </>
      )}
    </section>
  );
}
