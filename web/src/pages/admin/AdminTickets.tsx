import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf, type Schemas } from "../../api/client";
import { type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Breakable } from "./Breakable";
import { UserEmailLink } from "./UserEmailLink";
import { count, when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { categoryName, TICKET_CATEGORIES, TICKET_STATUSES, TicketStatus } from "./TicketStatus";

type Status = (typeof TICKET_STATUSES)[number];
type Category = (typeof TICKET_CATEGORIES)[number];

const TICKET_COLUMNS: Column<Schemas["AdminTicketRow"]>[] = [
  { header: "Subject", className: "wrap", cell: (ticket) => <Link to={`/admin/tickets/${ticket.id}`}>{ticket.subject}</Link> },
  {
    header: "From",
    className: "wrap",
    cell: (ticket) => (ticket.user_id ? <UserEmailLink userId={ticket.user_id} email={ticket.email} /> : <Breakable text={ticket.email} />),
  },
  { header: "Category", cell: (ticket) => categoryName(ticket.category) },
  { header: "Status", cell: (ticket) => <TicketStatus status={ticket.status} /> },
  { header: "Replies", kind: "number", cell: (ticket) => count(ticket.reply_count) },
  { header: "Received", cell: (ticket) => when(ticket.created_at) },
];

/** Support tickets, newest first, filtered by status and category (the filters apply as they change). */
export function AdminTickets() {
  const [status, setStatus] = useState<Status | "">("");
  const [category, setCategory] = useState<Category | "">("");
  const page = usePage();
  const tickets = useQuery({
    queryKey: ["admin", "tickets", "list", status, category, page.offset],
    queryFn: () =>
      dataOf(api.GET("/api/admin/tickets", { params: { query: { ...page.query, ...(status ? { status } : {}), ...(category ? { category } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const shown = tickets.data ? pageOf(tickets.data) : null;
  return (
    <section aria-labelledby="admin-tickets-title">
      <h1 id="admin-tickets-title">Tickets</h1>
      <form className="inline" aria-label="Filter tickets" onSubmit={(event) => event.preventDefault()}>
        <label>
          Status
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as Status | "");
              page.reset();
            }}
          >
            <option value="">Any status</option>
            {TICKET_STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select
            value={category}
            onChange={(event) => {
              setCategory(event.target.value as Category | "");
              page.reset();
            }}
          >
            <option value="">Any category</option>
            {TICKET_CATEGORIES.map((value) => (
              <option key={value} value={value}>
                {categoryName(value)}
              </option>
            ))}
          </select>
        </label>
      </form>
      {tickets.isPending && <Loading what="tickets" />}
      <ErrorNotice error={tickets.error} />
      <DataTable
        columns={TICKET_COLUMNS}
        rows={shown?.rows}
        rowKey={(ticket) => ticket.id}
        caption="Support tickets, newest first"
        empty={<p className="card">{status || category ? "No ticket matches these filters." : "No support tickets yet."}</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="tickets" />}
    </section>
  );
}
