import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { type Column, DataTable } from "../../components/DataTable";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Pager, pageOf, usePage } from "../../components/Pager";
import { credits, dayWithMonthName, usdFromCentsCompact } from "../../format";
import { usePacks, usePlans } from "./queries";

const STATUS: Record<Schemas["PaymentRow"]["status"], string> = {
  pending: "Pending",
  completed: "Paid",
  failed: "Failed",
  refunded: "Refunded",
};

/**
 * The account's payments, newest first. `pollWhilePending` is set on the return from checkout: the
 * processor confirms a payment a moment later, so the table looks again until nothing is pending.
 */
export function PaymentHistory({ pollWhilePending }: { pollWhilePending: boolean }) {
  const paging = usePage(20);
  const history = useQuery({
    queryKey: ["billing", "payments", paging.offset],
    queryFn: () => dataOf(api.GET("/api/billing/payment-history", { params: { query: paging.query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (pollWhilePending && query.state.data?.some((row) => row.status === "pending") ? 3000 : false),
  });
  const packs = usePacks();
  const plans = usePlans();
  const queryClient = useQueryClient();
  useEffect(() => {
    // A payment confirmed while polling brings credits (and maybe a plan): show them too.
    if (!pollWhilePending || !history.data) return;
    void queryClient.invalidateQueries({ queryKey: ["balance"] });
    void queryClient.invalidateQueries({ queryKey: ["billing", "subscription"] });
  }, [pollWhilePending, history.data, queryClient]);
  const { rows, hasNext } = pageOf(history.data ?? [], paging.size);

  function what(row: Schemas["PaymentRow"]): string {
    const pack = packs.data?.find((candidate) => candidate.id === row.pack_id)?.name ?? row.pack_id;
    const plan = plans.data?.find((candidate) => candidate.id === row.plan_id)?.name ?? row.plan_id;
    switch (row.kind) {
      case "pack":
        return `${pack} pack`;
      case "auto_topup":
        return `${pack} pack (auto top-up)`;
      case "plan_checkout":
        return `${plan} plan, first month`;
      case "plan_invoice":
        return `${plan} plan`;
    }
  }

  const columns: Column<Schemas["PaymentRow"]>[] = [
    { header: "Date", cell: (row) => dayWithMonthName(row.created_at) },
    { header: "Item", cell: what },
    { header: "Credits", cell: (row) => credits(row.pack_credits) },
    { header: "Amount", cell: (row) => usdFromCentsCompact(row.pack_amount_cents) },
    {
      header: "Status",
      cell: (row) => (
        <>
          <span className={`payment-status ${row.status}`}>{STATUS[row.status]}</span>
          {row.status === "failed" && row.error && <span className="muted failure">{row.error}</span>}
        </>
      ),
    },
  ];

  return (
    <section aria-labelledby="payments-title">
      <h2 id="payments-title">Payment history</h2>
      {history.isPending && <Loading what="your payments" />}
      <ErrorNotice error={history.error} />
      <DataTable
        className="payments"
        columns={columns}
        rows={history.data && rows}
        rowKey={(row) => row.id}
        caption="Your payments, newest first"
        empty={paging.offset === 0 && <p className="card empty">No payments yet. The packs and plans you buy are listed here.</p>}
      />
      <Pager page={paging} hasNext={hasNext} what="payments" />
    </section>
  );
}
