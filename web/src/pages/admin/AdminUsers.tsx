import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Breakable } from "./Breakable";
import { credits, when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";

/** Every account, newest first; searched by part of the email or by a full user id. */
export function AdminUsers() {
  const [draft, setDraft] = useState("");
  const [q, setQ] = useState("");
  const page = usePage();
  const users = useQuery({
    queryKey: ["admin", "users", "list", q, page.offset],
    queryFn: () => dataOf(api.GET("/api/admin/users", { params: { query: { ...page.query, ...(q ? { q } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  function search(event: FormEvent) {
    event.preventDefault();
    setQ(draft.trim());
    page.reset();
  }
  const shown = users.data ? pageOf(users.data) : null;
  return (
    <section aria-labelledby="admin-users-title">
      <h1 id="admin-users-title">Users</h1>
      <form className="inline" role="search" aria-label="Search users" onSubmit={search}>
        <label>
          Email or user id
          <input type="search" value={draft} maxLength={320} placeholder="part of an email, or a full id" onChange={(event) => setDraft(event.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      {users.isPending && <Loading what="users" />}
      <ErrorNotice error={users.error} />
      {shown && shown.rows.length === 0 && <p className="card">{q ? `No user matches “${q}”.` : "No users yet."}</p>}
      {shown && shown.rows.length > 0 && (
        <table>
          <caption className="visually-hidden">{q ? `Users matching “${q}”` : "All users, newest first"}</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Name</th>
              <th scope="col">Signed up</th>
              <th scope="col" className="number">
                Credits
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.rows.map((user) => (
              <tr key={user.id}>
                <td data-label="Email" className="wrap">
                  <Link to={`/admin/users/${user.id}`}>
                    <Breakable text={user.email} />
                  </Link>
                </td>
                <td data-label="Name">{[user.first_name, user.last_name].filter(Boolean).join(" ") || <span className="muted">—</span>}</td>
                <td data-label="Signed up">{when(user.created_at)}</td>
                <td data-label="Credits" className="number">
                  {credits(user.credits)}
                </td>
                <td data-label="Status">
                  {user.suspended_at ? <span className="tag bad">Suspended</span> : <span className="tag">Active</span>}
                  {user.is_admin && <span className="tag">Admin</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && <Pager page={page} hasNext={shown.hasNext} what="users" />}
    </section>
  );
}
