import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { DailyChart } from "../../components/DailyChart";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { count, credits, usdFromCents } from "../../format";

/** The service at a glance: totals now, and signups, jobs and credits charged per day over 30 days. */
export function AdminStats() {
  const stats = useQuery({ queryKey: ["admin", "stats"], queryFn: () => dataOf(api.GET("/api/admin/stats")) });
  return (
    <section aria-labelledby="admin-stats-title">
      <h1 id="admin-stats-title">Stats</h1>
      {stats.isPending && <Loading what="the stats" />}
      <ErrorNotice error={stats.error} />
      {stats.data && <StatsBody stats={stats.data} />}
    </section>
  );
}

function StatsBody({ stats }: { stats: Schemas["AdminStatsDto"] }) {
  // Memoised: the chart redraws whenever its days or series change identity. The API's buckets
  // are the same 30 UTC days, oldest first, zero-filled, for both series: no days to work out here.
  const charts = useMemo(
    () => ({
      days: stats.jobs_last_30d.map((bucket) => bucket.day),
      signups: [{ label: "Signups", color: "#2f5bd3", values: stats.signups_last_30d.map((bucket) => bucket.count) }],
      jobs: [{ label: "Jobs", color: "#0f7b6c", values: stats.jobs_last_30d.map((bucket) => bucket.count) }],
      charged: [{ label: "Credits charged", color: "#b7791f", values: stats.jobs_last_30d.map((bucket) => bucket.credits_charged_sum) }],
    }),
    [stats],
  );
  const tiles: [string, string][] = [
    ["Total users", count(stats.total_users)],
    ["Suspended users", count(stats.suspended_users)],
    ["Open tickets", count(stats.open_tickets)],
    ["In-flight jobs", count(stats.in_flight_jobs)],
    ["Outstanding credits", credits(stats.ledger_balance_outstanding)],
    ["Top-up revenue, 30 days", usdFromCents(stats.topup_revenue_last_30d_cents)],
  ];
  return (
    <>
      <dl className="tiles" aria-label="Totals">
        {tiles.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="charts">
        <DailyChart title="Signups per day (last 30 days, UTC)" days={charts.days} series={charts.signups} height={180} />
        <DailyChart title="Jobs per day (last 30 days, UTC)" days={charts.days} series={charts.jobs} height={180} />
        <DailyChart title="Credits charged per day (last 30 days, UTC)" days={charts.days} series={charts.charged} height={180} />
      </div>
    </>
  );
}
