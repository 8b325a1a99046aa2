import { useQuery } from "@tanstack/react-query";
import { api, dataOf } from "../api/client";

/** The signed-in home: the balance in credits and USD (issue 17 adds usage and recent jobs here). */
export function Overview() {
  const balance = useQuery({
    queryKey: ["balance"],
    queryFn: () => dataOf(api.GET("/api/credits/balance")),
  });
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {balance.isPending && <p role="status">Loading your balance…</p>}
      {balance.isError && <p role="alert">{balance.error.message}</p>}
      {balance.data && (
        <dl aria-label="Balance">
          <div>
            <dt>Credits</dt>
            <dd>{balance.data.credits.toLocaleString("en-US")}</dd>
          </div>
          <div>
            <dt>In USD</dt>
            <dd>${balance.data.usd}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}
