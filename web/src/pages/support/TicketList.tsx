import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { whenWithMonthName } from "../../format";
import { CATEGORY_LABELS, STATUS_LABELS } from "./labels";
import { Pager, pageOf, type usePage } from "../../components/Pager";

export const TICKETS_KEY = ["support", "tickets"];

/** The account's tickets, newest first, each with its status and the replies from support (oldest first). */
export function TicketList({ paging }: { paging: ReturnType<typeof usePage> }) {
  const tickets = useQuery({
    queryKey: [...TICKETS_KEY, paging.offset],
    queryFn: () => dataOf(api.GET("/api/support", { params: { query: paging.query } })),
    placeholderData: keepPreviousData,
  });
  const { rows, hasNext } = pageOf(tickets.data ?? [], paging.size);
  return (
    <section aria-labelledby="tickets-title">
      <h2 id="tickets-title">Your requests</h2>
      {tickets.isPending && <Loading what="your requests" />}
      <ErrorNotice error={tickets.error} />
      {tickets.data && rows.length === 0 && <p className="card empty">No requests yet. When you send one, it is listed here with our replies.</p>}
      {rows.length > 0 && (
        <ul className="tickets">
          {rows.map((ticket) => (
            <li key={ticket.id}>
              <Ticket ticket={ticket} />
            </li>
          ))}
        </ul>
      )}
      <Pager page={paging} hasNext={hasNext} what="your requests" />
    </section>
  );
}

function Ticket({ ticket }: { ticket: Schemas["SupportTicket"] }) {
  const titleId = `ticket-${ticket.id}`;
  return (
    <article className="card ticket" aria-labelledby={titleId}>
      <div className="ticket-head">
        <h3 id={titleId}>{ticket.subject}</h3>
        <span className={`ticket-status ${ticket.status}`}>{STATUS_LABELS[ticket.status] ?? ticket.status}</span>
      </div>
      <p className="muted meta">
        {CATEGORY_LABELS[ticket.category]} · sent {whenWithMonthName(ticket.created_at)}
      </p>
      <p className="text">{ticket.body}</p>
      {ticket.replies.length > 0 && (
        <ol className="replies" aria-label={`Replies to ${ticket.subject}`}>
          {ticket.replies.map((reply) => (
            <li key={reply.id} className="reply">
              <p className="muted meta">Support replied {whenWithMonthName(reply.created_at)}</p>
              <p className="text">{reply.body}</p>
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
