import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { Link } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { DailyChart } from "../components/DailyChart";
import { ErrorNotice } from "../components/ErrorNotice";
import { credits } from "../format";
import { DataTable } from "../components/DataTable";
import { Loading } from "../components/Loading";
import { FirstStep } from "../quickstart/FirstStep";
import { SearchSource } from "./playground/SearchSource";
import { JOB_COLUMN } from "./jobColumns";

const RECENT_JOB_COLUMNS = [JOB_COLUMN.question, JOB_COLUMN.status, JOB_COLUMN.credits, JOB_COLUMN.latency, JOB_COLUMN.started];

/**
 * The signed-in home: a new account's first step (no key, no job yet), the balance in credits and
 * USD, credits used per day over 30 days, the jobs, plans and monitor runs of each day, the latest jobs.
 */
export function Overview() {
  const balance = useQuery({ queryKey: ["balance"], queryFn: () => dataOf(api.GET("/api/credits/balance")) });
  // The API's default window is the last 30 UTC days, zero-filled.
  const usage = useQuery({ queryKey: ["usage"], queryFn: () => dataOf(api.GET("/api/dashboard/usage")) });
  const recent = useQuery({ queryKey: ["recent"], queryFn: () => dataOf(api.GET("/api/dashboard/recent")) });
  const keys = useQuery({ queryKey: ["keys"], queryFn: () => dataOf(api.GET("/api/keys")) });
  // Held here, not in the card: creating the key ends "no keys yet", and the card must stay to show it.
  const [createdKey, setCreatedKey] = useState<Schemas["CreatedKey"] | null>(null);
  const isNewAccount = keys.data?.length === 0 && recent.data?.length === 0;
  const chart = useMemo(
    () =>
      usage.data && {
        days: usage.data.map((bucket) => bucket.day),
        series: [{ label: "Credits", color: "#2f5bd3", values: usage.data.map((bucket) => bucket.credits) }],
      },
    [usage.data],
  );
  // What was run each day: jobs, the plans reviewed before running (free), the monitors' runs (also jobs).
  const activity = useMemo(
    () =>
      usage.data && {
        days: usage.data.map((bucket) => bucket.day),
        series: [
          { label: "Jobs", color: "#2f5bd3", values: usage.data.map((bucket) => bucket.jobs) },
          { label: "Plans", color: "#8a5cd6", values: usage.data.map((bucket) => bucket.plans) },
          { label: "Monitor runs", color: "#1f8a6b", values: usage.data.map((bucket) => bucket.monitor_runs) },
        ],
      },
    [usage.data],
  );
  const usedIn30Days = usage.data?.reduce((sum, bucket) => sum + bucket.credits, 0) ?? 0;
  const jobsIn30Days = usage.data?.reduce((sum, bucket) => sum + bucket.jobs, 0) ?? 0;
  const plansIn30Days = usage.data?.reduce((sum, bucket) => sum + bucket.plans, 0) ?? 0;
  const monitorRunsIn30Days = usage.data?.reduce((sum, bucket) => sum + bucket.monitor_runs, 0) ?? 0;

  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      {(isNewAccount || createdKey) && <FirstStep createdKey={createdKey} onCreated={setCreatedKey} onDone={() => setCreatedKey(null)} />}
      {balance.isPending && <Loading what="your balance" />}
      <ErrorNotice error={balance.error ?? usage.error ?? recent.error} />
      {balance.data && (
        <dl aria-label="Balance">
          <div>
            <dt>Credits</dt>
            <dd>{credits(balance.data.credits)}</dd>
          </div>
          <div>
            <dt>In USD</dt>
            <dd>${balance.data.usd}</dd>
          </div>
          {usage.data && (
            <div>
              <dt>Used in 30 days</dt>
              <dd>
                {credits(usedIn30Days)}{" "}
                <span className="unit">
                  credits · {jobsIn30Days} jobs · {plansIn30Days} plans · {monitorRunsIn30Days} monitor runs
                </span>
              </dd>
            </div>
          )}
        </dl>
      )}
      <SearchSource />
      {usage.isPending && <Loading what="your usage" />}
      {chart && <DailyChart title="Credits used per day (last 30 days, UTC)" days={chart.days} series={chart.series} />}
      {activity && <DailyChart title="Jobs, plans and monitor runs per day (last 30 days, UTC)" days={activity.days} series={activity.series} height={160} />}
      <h2>Recent jobs</h2>
      {recent.isPending && <Loading what="your recent jobs" />}
      <DataTable
        columns={RECENT_JOB_COLUMNS}
        rows={recent.data}
        rowKey={(job) => job.id}
        caption="Recent jobs"
        empty={
          <p className="card">
            No jobs yet. <Link to="/playground">Try the playground</Link> or <Link to="/keys">create an API key</Link>.
          </p>
        }
      />
    </section>
  );
}
