import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { credits, signedCredits, when } from "../../format";
import { Pager, pageOf, usePage } from "../../components/Pager";

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
      {shown && shown.rows.length === 0 && <p className="card muted">No ledger entries yet.</p>}
      {shown && shown.rows.length > 0 && (
        <table aria-labelledby="user-ledger-title">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Kind</th>
              <th scope="col" className="number">
                Change
              </th>
              <th scope="col" className="number">
                Balance after
              </th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {shown.rows.map((entry) => (
              <tr key={entry.id}>
                <td data-label="When" className="nowrap">{when(entry.created_at)}</td>
                <td data-label="Kind">
                  <code>{entry.kind}</code>
                </td>
                <td data-label="Change" className={`number ${entry.delta < 0 ? "debit" : entry.delta > 0 ? "credit" : "nil"}`}>
                  {signedCredits(entry.delta)}
                </td>
                <td data-label="Balance after" className="number">
                  {credits(entry.balance_after)}
                </td>
                <td data-label="Note" className="wrap">
                  {entry.note ?? <span className="muted">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && <Pager page={page} hasNext={shown.hasNext} what="ledger entries" />}
    </section>
  );
}
