import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Breakable } from "./Breakable";
import { count, when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { categoryName, TICKET_CATEGORIES, TICKET_STATUSES, TicketStatus } from "./TicketStatus";

type Status = (typeof TICKET_STATUSES)[number];
type Category = (typeof TICKET_CATEGORIES)[number];

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
      {shown && shown.rows.length === 0 && <p className="card">{status || category ? "No ticket matches these filters." : "No support tickets yet."}</p>}
      {shown && shown.rows.length > 0 && (
        <table>
          <caption className="visually-hidden">Support tickets, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">From</th>
              <th scope="col">Category</th>
              <th scope="col">Status</th>
              <th scope="col" className="number">
                Replies
              </th>
              <th scope="col">Received</th>
            </tr>
          </thead>
          <tbody>
            {shown.rows.map((ticket) => (
              <tr key={ticket.id}>
                <td data-label="Subject" className="wrap">
                  <Link to={`/admin/tickets/${ticket.id}`}>{ticket.subject}</Link>
                </td>
                <td data-label="From" className="wrap">
                  {ticket.user_id ? (
                    <Link to={`/admin/users/${ticket.user_id}`}>
                      <Breakable text={ticket.email} />
                    </Link>
                  ) : (
                    <Breakable text={ticket.email} />
                  )}
                </td>
                <td data-label="Category">{categoryName(ticket.category)}</td>
                <td data-label="Status">
                  <TicketStatus status={ticket.status} />
                </td>
                <td data-label="Replies" className="number">
                  {count(ticket.reply_count)}
                </td>
                <td data-label="Received">{when(ticket.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && <Pager page={page} hasNext={shown.hasNext} what="tickets" />}
    </section>
  );
}
