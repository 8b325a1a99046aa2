import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf, type Schemas } from "../../api/client";
import { type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Breakable } from "./Breakable";
import { when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";

/** The actions the audit trail records (docs/decisions.md, "Audit trail"). */
const ACTIONS = [
  "user.credits_adjust",
  "user.suspend",
  "user.unsuspend",
  "job.refund",
  "ticket.reply",
  "ticket.close",
  "ticket.reopen",
  "processor_event.replay",
  "corpus.ingest",
  "corpus.delete_domain",
];
const TARGET_TYPES = ["user", "job", "ticket", "processor_event", "corpus"];

/** Where an audited target lives in the admin pages, when it has a page. */
const TARGET_PAGES: Record<string, string> = { user: "/admin/users/", job: "/admin/jobs/", ticket: "/admin/tickets/" };

const AUDIT_COLUMNS: Column<Schemas["AdminAuditRow"]>[] = [
  { header: "When", cell: (entry) => when(entry.created_at) },
  { header: "Admin", className: "wrap", cell: (entry) => (entry.admin_email ? <Breakable text={entry.admin_email} /> : <code>{entry.admin_id}</code>) },
  { header: "Action", className: "nowrap", cell: (entry) => <code>{entry.action}</code> },
  { header: "Target", className: "wrap", cell: (entry) => <Target type={entry.target_type} id={entry.target_id} /> },
  { header: "Details", className: "wrap", cell: (entry) => <Details details={entry.details} /> },
];

/** Every admin mutation, newest first: who did what to which record, with its details. */
export function AdminAudit() {
  const empty = { action: "", targetType: "", targetId: "" };
  const [draft, setDraft] = useState(empty);
  const [filters, setFilters] = useState(empty);
  const page = usePage();
  const audit = useQuery({
    queryKey: ["admin", "audit", filters, page.offset],
    queryFn: () =>
      dataOf(
        api.GET("/api/admin/audit", {
          params: {
            query: {
              ...page.query,
              ...(filters.action ? { action: filters.action } : {}),
              ...(filters.targetType ? { target_type: filters.targetType } : {}),
              ...(filters.targetId ? { target_id: filters.targetId } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  function apply(event: FormEvent) {
    event.preventDefault();
    setFilters({ ...draft, targetId: draft.targetId.trim() });
    page.reset();
  }
  const shown = audit.data ? pageOf(audit.data) : null;
  const filtered = Object.values(filters).some(Boolean);
  return (
    <section aria-labelledby="admin-audit-title">
      <h1 id="admin-audit-title">Audit trail</h1>
      <form className="inline" aria-label="Filter the audit trail" onSubmit={apply}>
        <label>
          Action
          <select value={draft.action} onChange={(event) => setDraft({ ...draft, action: event.target.value })}>
            <option value="">Any action</option>
            {ACTIONS.map((action) => (
              <option key={action}>{action}</option>
            ))}
          </select>
        </label>
        <label>
          Target type
          <select value={draft.targetType} onChange={(event) => setDraft({ ...draft, targetType: event.target.value })}>
            <option value="">Any type</option>
            {TARGET_TYPES.map((type) => (
              <option key={type}>{type}</option>
            ))}
          </select>
        </label>
        <label>
          Target id
          <input value={draft.targetId} maxLength={255} onChange={(event) => setDraft({ ...draft, targetId: event.target.value })} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {audit.isPending && <Loading what="the audit trail" />}
      <ErrorNotice error={audit.error} />
      <DataTable
        columns={AUDIT_COLUMNS}
        rows={shown?.rows}
        rowKey={(entry) => entry.id}
        caption="Admin actions, newest first"
        empty={<p className="card">{filtered ? "No entry matches these filters." : "No admin action recorded yet."}</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="audit entries" />}
    </section>
  );
}

function Target({ type, id }: { type: string; id: string | null }) {
  if (!id) return <>{type}</>;
  const path = TARGET_PAGES[type];
  return (
    <>
      {type}{" "}
      {path ? (
        <Link to={`${path}${id}`}>
          <code>{id}</code>
        </Link>
      ) : (
        <code>{id}</code>
      )}
    </>
  );
}

/** The entry's details as "key: value" lines (values that are objects stay JSON). */
function Details({ details }: { details: Record<string, unknown> | null }) {
  const entries = Object.entries(details ?? {}).filter(([, value]) => value !== null && value !== undefined);
  if (entries.length === 0) return <span className="muted">—</span>;
  return (
    <dl className="details">
      {entries.map(([key, value]) => (
        <div key={key}>
          <dt>{key.replace(/_/g, " ")}</dt>
          <dd>{typeof value === "object" ? JSON.stringify(value) : String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
