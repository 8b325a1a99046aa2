import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, dataOf, type Schemas } from "../../api/client";
import { type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, signedCredits, when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";

const LEDGER_COLUMNS: Column<Schemas["AdminLedgerRow"]>[] = [
  { header: "When", className: "nowrap", cell: (entry) => when(entry.created_at) },
  { header: "Kind", cell: (entry) => <code>{entry.kind}</code> },
  {
    header: "Change",
    kind: "number",
    className: (entry) => (entry.delta < 0 ? "debit" : entry.delta > 0 ? "credit" : "nil"),
    cell: (entry) => signedCredits(entry.delta),
  },
  { header: "Balance after", kind: "number", cell: (entry) => credits(entry.balance_after) },
  { header: "Note", className: "wrap", cell: (entry) => entry.note ?? <span className="muted">—</span> },
];

/** A user's credit ledger, newest first: every change with the balance after it. */
export function UserLedger({ userId }: { userId: string }) {
  const page = usePage();
  const ledger = useQuery({
    queryKey: ["admin", "users", userId, "ledger", page.offset],
    queryFn: () => dataOf(api.GET("/api/admin/users/{id}/ledger", { params: { path: { id: userId }, query: page.query } })),
    placeholderData: keepPreviousData,
  });
  const shown = ledger.data ? pageOf(ledger.data) : null;
  return (
    <section aria-labelledby="user-ledger-title">
      <h2 id="user-ledger-title">Ledger</h2>
      {ledger.isPending && <Loading what="the ledger" />}
      <ErrorNotice error={ledger.error} />
      <DataTable
        columns={LEDGER_COLUMNS}
        rows={shown?.rows}
        rowKey={(entry) => entry.id}
        labelledBy="user-ledger-title"
        empty={<p className="card muted">No ledger entries yet.</p>}
      />
      {shown && <Pager page={page} hasNext={shown.hasNext} what="ledger entries" />}
    </section>
  );
}
