import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { actionsColumn, type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { refreshAdmin } from "./refresh";

/**
 * Payment processor events as received, newest first. Replay runs a stored event through the
 * webhook's own idempotent handler again (it never credits twice), e.g. after a handler bug is fixed.
 */
export function AdminEvents() {
  const queryClient = useQueryClient();
  const page = usePage();
  const [done, setDone] = useState<string | null>(null);
  const events = useQuery({
    queryKey: ["admin", "events", page.offset],
    queryFn: () => dataOf(api.GET("/api/admin/processor-events", { params: { query: page.query } })),
    placeholderData: keepPreviousData,
  });
  const replay = useMutation({
    mutationFn: (id: string) => dataOf(api.POST("/api/admin/processor-events/{id}/replay", { params: { path: { id } } })),
    onSuccess: (_data, id) => {
      setDone(`Event ${id} replayed.`);
      // A replay can credit a purchase: balances, stats and the audit trail may all change.
      void refreshAdmin(queryClient, "events", "users", "stats", "audit");
    },
  });
  const shown = events.data ? pageOf(events.data) : null;
  const columns: Column<Schemas["AdminProcessorEventRow"]>[] = [
    { header: "Received", cell: (event) => when(event.received_at) },
    { header: "Type", cell: (event) => <code>{event.event_type}</code> },
    { header: "Event id", className: "wrap", cell: (event) => <code>{event.id}</code> },
    // `unsupported`: of another Stripe API version than the server reads; the error says which to set on the endpoint.
    {
      header: "Status",
      className: "wrap",
      cell: (event) => (
        <>
          {event.status}
          {event.error && <span className="muted small"> {event.error}</span>}
        </>
      ),
    },
    actionsColumn((event) =>
      event.has_body ? (
        <button
          type="button"
          aria-label={`Replay ${event.id}`}
          disabled={replay.isPending}
          onClick={() => {
            setDone(null);
            replay.mutate(event.id);
          }}
        >
          Replay
        </button>
      ) : (
        <span className="muted small">no stored body</span>
      ),
    ),
  ];
  return (
    <section aria-labelledby="admin-events-title">
      <h1 id="admin-events-title">Processor events</h1>
      <p className="muted">
        Events the payment processor sent. Replaying one applies it again through the same idempotent handler, so nothing is credited twice.
      </p>
      {done && <p role="status">{done}</p>}
      <ErrorNotice error={replay.error} />
      {events.isPending && <Loading what="processor events" />}
      <ErrorNotice error={events.error} />
      <DataTable
        columns={columns}
        rows={shown?.rows}
        rowKey={(event) => event.id}
        caption="Processor events, newest first"
        empty={<p className="card">No processor events received yet.</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="processor events" />}
    </section>
  );
}
