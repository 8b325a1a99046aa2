import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { type Column, DataTable } from "../components/DataTable";
import { ErrorNotice } from "../components/ErrorNotice";
import { Loading } from "../components/Loading";
import { Pager, pageOf, usePage } from "../components/Pager";
import { byteSize, count, when } from "../format";

const COLUMNS: Column<Schemas["Collection"]>[] = [
  {
    header: "Name",
    kind: "title",
    cell: (collection) => (
      <>
        <Link to={`/collections/${collection.id}`}>{collection.name}</Link>
        {collection.description && <div className="muted">{collection.description}</div>}
      </>
    ),
  },
  { header: "Documents", cell: (collection) => count(collection.document_count) },
  { header: "Text", cell: (collection) => byteSize(collection.bytes) },
  { header: "Updated", cell: (collection) => when(collection.updated_at) },
];

/** Collections: the account's own documents, which research can search instead of (or with) the web. */
export function Collections() {
  const queryClient = useQueryClient();
  const paging = usePage();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const collections = useQuery({
    queryKey: ["collections", paging.offset],
    queryFn: () => dataOf(api.GET("/api/collections", { params: { query: paging.query } })),
  });
  const create = useMutation({
    mutationFn: () => dataOf(api.POST("/api/collections", { body: { name, ...(description.trim() ? { description } : {}) } })),
    onSuccess: () => {
      setName("");
      setDescription("");
      paging.reset();
      void queryClient.invalidateQueries({ queryKey: ["collections"] });
    },
  });
  const { rows, hasNext } = pageOf(collections.data ?? [], paging.size);

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate();
  }

  return (
    <section aria-labelledby="collections-title">
      <h1 id="collections-title">Collections</h1>
      <p className="muted">
        Your own documents (PDF, HTML, Markdown, text, JSON Lines). Research that names a collection searches it instead of the web, and cites its documents.
        Adding documents costs 2 credits per MB of text.
      </p>
      <form onSubmit={submit} aria-label="Create a collection" className="inline">
        <label>
          Collection name
          <input required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} placeholder="Board papers" />
        </label>
        <label>
          Description (optional)
          <input maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
        </label>
        <button type="submit" disabled={create.isPending}>
          Create collection
        </button>
      </form>
      <ErrorNotice error={create.error ?? collections.error} />
      {collections.isPending && <Loading what="your collections" />}
      <DataTable
        columns={COLUMNS}
        rows={collections.data && rows}
        rowKey={(collection) => collection.id}
        caption="Your collections"
        empty={<p className="card">No collections yet: create one, then upload documents to it.</p>}
      />
      <Pager page={paging} hasNext={hasNext} what="collections" />
    </section>
  );
}
