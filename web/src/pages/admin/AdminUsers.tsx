import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { UserEmailLink } from "./UserEmailLink";
import { credits, when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";

const USER_COLUMNS: Column<Schemas["AdminUserRow"]>[] = [
  { header: "Email", className: "wrap", cell: (user) => <UserEmailLink userId={user.id} email={user.email} /> },
  { header: "Name", cell: (user) => [user.first_name, user.last_name].filter(Boolean).join(" ") || <span className="muted">—</span> },
  { header: "Signed up", cell: (user) => when(user.created_at) },
  { header: "Credits", kind: "number", cell: (user) => credits(user.credits) },
  {
    header: "Status",
    cell: (user) => (
      <>
        {user.suspended_at ? <span className="tag bad">Suspended</span> : <span className="tag">Active</span>}
        {user.is_admin && <span className="tag">Admin</span>}
      </>
    ),
  },
];

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
      <DataTable
        columns={USER_COLUMNS}
        rows={shown?.rows}
        rowKey={(user) => user.id}
        caption={q ? `Users matching “${q}”` : "All users, newest first"}
        empty={<p className="card">{q ? `No user matches “${q}”.` : "No users yet."}</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="users" />}
    </section>
  );
}
