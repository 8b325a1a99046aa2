import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { count, when } from "../../format";
import { UserEmailLink } from "./UserEmailLink";

type Report = Schemas["AdminOverageReportRow"];
type Status = Report["status"];

/** Each state in a sentence; a Record, so a state the API adds fails the build until it is explained here. */
const MEANING: Record<Status, string> = {
  pending: "the first send to Stripe is under way",
  failed: "Stripe did not take it; the cron sweep sends it again with the same identifier",
  skipped: "never sent and never retried: payments were not configured, or the user had no Stripe customer",
  abandoned: "given up past Stripe's window for meter events",
  reported: "Stripe has it: it is billed with the user's next invoice",
};
const STATUSES = Object.keys(MEANING) as Status[];

/** What happens to the report next, which is what an operator needs to know of it. */
function next(report: Report): string {
  switch (report.status) {
    case "pending":
      return "first send under way";
    case "failed":
      return report.next_attempt_at ? `next try ${when(report.next_attempt_at)}` : "next try due";
    case "skipped":
    case "abandoned":
      return "nothing: bill it by hand if it is owed";
    case "reported":
      return report.reported_at ? `billed (sent ${when(report.reported_at)})` : "billed";
  }
}

const COLUMNS: Column<Report>[] = [
  { header: "Used", cell: (report) => when(report.created_at) },
  {
    header: "User",
    className: "wrap",
    cell: (report) =>
      report.user_email ? <UserEmailLink userId={report.user_id} email={report.user_email} /> : <span className="muted">account deleted</span>,
  },
  { header: "Credits", kind: "number", cell: (report) => count(report.credits) },
  {
    header: "Status",
    cell: (report) => (
      <>
        {report.status}
        {/* A send that may have reached Stripe: retried only inside the identifier's 24 hours. */}
        {report.in_doubt && <span className="muted small"> in doubt</span>}
      </>
    ),
  },
  { header: "Attempts", kind: "number", cell: (report) => count(report.attempts) },
  {
    header: "Last error",
    className: "wrap",
    cell: (report) => (report.error ? <span className="small">{report.error}</span> : <span className="muted">none</span>),
  },
  { header: "Next", className: "wrap", cell: next },
];

/**
 * Plan overage as reported to the processor's billing meter (GET /api/admin/overage-reports):
 * by default every report not yet billed, with its attempts, last error and what happens next.
 */
export function AdminOverage() {
  const [draft, setDraft] = useState("");
  const [status, setStatus] = useState("");
  const page = usePage();
  const reports = useQuery({
    queryKey: ["admin", "overage", status, page.offset],
    queryFn: () => dataOf(api.GET("/api/admin/overage-reports", { params: { query: { ...page.query, ...(status ? { status: status as Status } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  function apply(event: FormEvent) {
    event.preventDefault();
    setStatus(draft);
    page.reset();
  }
  const shown = reports.data ? pageOf(reports.data) : null;
  return (
    <section aria-labelledby="admin-overage-title">
      <h1 id="admin-overage-title">Overage reports</h1>
      <p className="muted">
        Credits paid plans used past their balance, as sent to Stripe's billing meter. The credits were granted when used; only their billing is tracked here.
      </p>
      <form className="inline" aria-label="Filter overage reports" onSubmit={apply}>
        <label>
          Status
          <select value={draft} onChange={(event) => setDraft(event.target.value)}>
            <option value="">Not yet billed</option>
            {STATUSES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      {reports.isPending && <Loading what="overage reports" />}
      <ErrorNotice error={reports.error} />
      <DataTable
        columns={COLUMNS}
        rows={shown?.rows}
        rowKey={(report) => report.id}
        caption="Overage reports, newest first"
        empty={<p className="card">{status ? `No ${status} overage report.` : "Every overage report is billed."}</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="overage reports" />}
      <dl className="card small status-legend" aria-label="What each status means">
        {STATUSES.map((value) => (
          <div key={value}>
            <dt>{value}</dt>
            <dd>{MEANING[value]}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
