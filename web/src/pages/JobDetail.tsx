import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { api, dataOf } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";
import { isTerminal } from "../job-statuses";
import { Loading } from "../components/Loading";
import { JobProgress } from "../research/JobProgress";
import { JobResult } from "../research/JobResult";
import { useJobStream } from "../research/useJobStream";

/** What an event says, in a line. */
function describeEvent(event: { event: string; data: unknown }): string {
  const data = event.data as Record<string, unknown>;
  switch (event.event) {
    case "status":
      return `status ${String(data.status)}`;
    case "progress":
      return `${String(data.stage)}: wave ${String(data.wave)}, ${String(data.searches)} searches, ${String(data.pages)} pages, $${Number(data.cost_usd).toFixed(4)}`;
    case "source":
      return `read ${String(data.title)} (${String(data.domain)})`;
    case "result":
      return `result: ${String(data.status)}`;
    default:
      return JSON.stringify(data);
  }
}

/**
 * One job: its result (brief, sources, typed output, cost), its event timeline (the stream replays
 * every event, live while it runs) and its webhook delivery attempts; a running job can be cancelled.
 */
export function JobDetail() {
  const { id = "" } = useParams();
  const queryClient = useQueryClient();
  const job = useQuery({ queryKey: ["job", id], queryFn: () => dataOf(api.GET("/api/playground/research/{id}", { params: { path: { id } } })) });
  const stream = useJobStream(job.data ? `/api/playground/research/${id}/events` : null);
  const deliveries = useQuery({
    queryKey: ["deliveries", id, stream.result?.status],
    queryFn: () => dataOf(api.GET("/api/playground/research/{id}/deliveries", { params: { path: { id } } })),
    enabled: job.isSuccess,
  });
  const [problem, setProblem] = useState<unknown>(null);
  const result = stream.result ?? (job.data && isTerminal(job.data.status) ? job.data : null);

  async function cancel() {
    try {
      await dataOf(api.DELETE("/api/playground/research/{id}", { params: { path: { id } } }));
      void queryClient.invalidateQueries({ queryKey: ["job", id] });
    } catch (error) {
      setProblem(error);
    }
  }

  return (
    <section aria-labelledby="job-title">
      <p>
        <Link to="/jobs">← All jobs</Link>
      </p>
      <h1 id="job-title">{job.data?.question ?? "Job"}</h1>
      {job.isPending && <Loading what="the job" />}
      <ErrorNotice error={job.error ?? problem ?? stream.problem} />
      {job.data && (
        <p className="muted">
          Started {new Date(job.data.created_at).toLocaleString()}
          {job.data.completed_at && `, finished ${new Date(job.data.completed_at).toLocaleString()}`} · <code>{id}</code>
        </p>
      )}
      {job.data && !result && (
        <>
          <button type="button" className="secondary" onClick={cancel}>
            Cancel the job
          </button>
          <JobProgress state={stream} costCapUsd={null} maxWaves={null} />
        </>
      )}
      {result && <JobResult result={result} />}
      <h2>Events</h2>
      {stream.events.length === 0 ? (
        <p className="muted">{job.data ? "Loading the events…" : "–"}</p>
      ) : (
        <ol aria-label="Events" className="events">
          {stream.events.map((event) => (
            <li key={event.id}>
              <span className="muted">#{event.id}</span> {describeEvent(event)}
            </li>
          ))}
        </ol>
      )}
      <h2>Webhook deliveries</h2>
      {deliveries.isPending && job.isSuccess && <Loading what="the deliveries" />}
      {deliveries.data && deliveries.data.length === 0 && <p className="muted">No webhook was set for this job.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <table>
          <caption className="visually-hidden">Webhook delivery attempts</caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">Answer</th>
              <th scope="col">Time</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.map((delivery) => (
              <tr key={delivery.attempt}>
                <td data-label="Attempt">{delivery.attempt}</td>
                <td data-label="Answer">{delivery.status_code ?? delivery.error ?? "–"}</td>
                <td data-label="Time">{delivery.duration_ms} ms</td>
                <td data-label="When">{new Date(delivery.created_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
