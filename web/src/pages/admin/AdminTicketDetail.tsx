import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { when } from "../../format";
import { refreshAdmin } from "./refresh";
import { TicketReplyForm } from "./TicketReplyForm";
import { categoryName, TicketStatus } from "./TicketStatus";

/** One ticket: what the user wrote, the replies (and whether each was emailed), reply, close, reopen. */
export function AdminTicketDetail() {
  const { id = "" } = useParams();
  const ticket = useQuery({ queryKey: ["admin", "tickets", id], queryFn: () => dataOf(api.GET("/api/admin/tickets/{id}", { params: { path: { id } } })) });
  return (
    <section aria-labelledby="admin-ticket-title">
      <p>
        <Link to="/admin/tickets">← All tickets</Link>
      </p>
      {ticket.isPending && <Loading what="the ticket" />}
      {ticket.isError && <h1 id="admin-ticket-title">Ticket</h1>}
      <ErrorNotice error={ticket.error} />
      {ticket.data && <TicketBody ticket={ticket.data} />}
    </section>
  );
}

function TicketBody({ ticket }: { ticket: Schemas["AdminTicketDetail"] }) {
  return (
    <>
      <h1 id="admin-ticket-title" className="wrap">
        {ticket.subject}
      </h1>
      <dl className="facts" aria-label="Ticket">
        <dt>Status</dt>
        <dd>
          <TicketStatus status={ticket.status} />
        </dd>
        <dt>From</dt>
        <dd className="wrap">{ticket.user_id ? <Link to={`/admin/users/${ticket.user_id}`}>{ticket.email}</Link> : `${ticket.email} (account deleted)`}</dd>
        <dt>Category</dt>
        <dd>{categoryName(ticket.category)}</dd>
        <dt>Received</dt>
        <dd>{when(ticket.created_at)}</dd>
        <dt>Reference</dt>
        <dd>
          <code>{ticket.id}</code>
        </dd>
      </dl>
      <article className="card message" aria-label="The user's message">
        <p className="prose">{ticket.body}</p>
      </article>
      <section aria-labelledby="ticket-replies-title">
        <h2 id="ticket-replies-title">Replies</h2>
        {ticket.replies.length === 0 && <p className="muted">No reply yet.</p>}
        <ol className="replies">
          {ticket.replies.map((reply) => (
            <li key={reply.id} className="card" aria-label={`Reply of ${when(reply.created_at)}`}>
              <p className="muted small">
                {when(reply.created_at)} · {reply.sent_email ? "emailed to the user" : "not emailed"}
              </p>
              <p className="prose">{reply.body}</p>
            </li>
          ))}
        </ol>
      </section>
      <TicketReplyForm ticketId={ticket.id} email={ticket.email} />
      <OpenOrClose ticket={ticket} />
    </>
  );
}

/** Close an answered (or open) ticket, or reopen a closed one. */
function OpenOrClose({ ticket }: { ticket: Schemas["AdminTicketDetail"] }) {
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const closed = ticket.status === "closed";
  const change = useMutation({
    mutationFn: (close: boolean) =>
      dataOf(api.POST(close ? "/api/admin/tickets/{id}/close" : "/api/admin/tickets/{id}/reopen", { params: { path: { id: ticket.id } } })),
    onSuccess: (_data, close) => {
      setDone(close ? "Ticket closed." : "Ticket reopened.");
      void refreshAdmin(queryClient, "tickets", "stats", "audit");
    },
  });
  return (
    <div className="card" role="group" aria-label="Ticket status">
      <p>{closed ? "This ticket is closed. Reopen it if the user still needs help." : "Close the ticket once the user needs nothing more."}</p>
      <button
        type="button"
        className="secondary"
        disabled={change.isPending}
        onClick={() => {
          setDone(null);
          change.mutate(!closed);
        }}
      >
        {closed ? "Reopen ticket" : "Close ticket"}
      </button>
      {done && <p role="status">{done}</p>}
      <ErrorNotice error={change.error} />
    </div>
  );
}
