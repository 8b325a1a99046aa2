import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { type Column, DataTable } from "../components/DataTable";
import { ErrorNotice } from "../components/ErrorNotice";
import { isTerminal } from "../job-statuses";
import { Loading } from "../components/Loading";
import { when, workCredits } from "../format";
import { CancelOutcome } from "../research/CancelOutcome";
import { AskFollowUp, JobThread } from "../research/FollowUp";
import { JobProgress } from "../research/JobProgress";
import { JobResult } from "../research/JobResult";
import type { JobEvent } from "../research/sse";
import { useJobStream } from "../research/useJobStream";

/** What an event says, in a line. */
function describeEvent(event: JobEvent): string {
  switch (event.event) {
    case "status":
      return `status ${event.data.status}`;
    case "progress": {
      const { stage, wave, searches, pages, cost_usd } = event.data;
      return `${stage}: wave ${wave}, ${searches} searches, ${pages} pages requested, ${workCredits(cost_usd)} credits of work`;
    }
    case "source":
      return `read ${event.data.title} (${event.data.domain})`;
    case "result":
      return `result: ${event.data.status}`;
    default:
      return JSON.stringify(event.data);
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
  // The cancel's answer: the job as the cancel left it, and what the cancel did.
  const [cancelled, setCancelled] = useState<Schemas["CancelResult"] | null>(null);
  const cancelAnswer = cancelled?.id === id ? cancelled : null;
  const resend = useMutation({
    mutationFn: (deliveryId: string) =>
      dataOf(api.POST("/api/playground/research/{id}/deliveries/{delivery_id}/resend", { params: { path: { id, delivery_id: deliveryId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["deliveries", id] }),
  });
  const deliveryColumns: Column<Schemas["WebhookDelivery"]>[] = [
    ...DELIVERY_COLUMNS,
    {
      header: "Resend",
      cell: (delivery) => (
        <button
          type="button"
          className="secondary"
          aria-label={`Resend ${delivery.event} (attempt ${delivery.attempt})`}
          disabled={resend.isPending}
          onClick={() => resend.mutate(delivery.delivery_id)}
        >
          Resend
        </button>
      ),
    },
  ];
  // The cancel's answer is final: shown at once, even before the stream brings the same result.
  const result = stream.result ?? cancelAnswer ?? (job.data && isTerminal(job.data.status) ? job.data : null);

  async function cancel() {
    try {
      setCancelled(await dataOf(api.DELETE("/api/playground/research/{id}", { params: { path: { id } } })));
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
          Started {when(job.data.created_at)}
          {job.data.completed_at && `, finished ${when(job.data.completed_at)}`} · <code>{id}</code>
        </p>
      )}
      {job.data && !result && (
        <>
          <button type="button" className="secondary" onClick={cancel}>
            Cancel the job
          </button>
          <JobProgress state={stream} reservedCredits={null} maxWaves={null} />
        </>
      )}
      <CancelOutcome answer={cancelAnswer} />
      {result && <JobResult result={result} />}
      {job.data && <JobThread job={job.data} />}
      {result?.status === "succeeded" && <AskFollowUp jobId={id} />}
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
      <DataTable
        columns={deliveryColumns}
        rows={deliveries.data}
        rowKey={(delivery) => `${delivery.delivery_id}#${delivery.attempt}`}
        caption="Webhook delivery attempts"
        empty={<p className="muted">No webhook was set for this job.</p>}
      />
      {resend.data && (
        <p role="status" className="saved">
          Resent {resend.data.event} (attempt {resend.data.attempt}): {resend.data.status_code ?? resend.data.error}
        </p>
      )}
      <ErrorNotice error={resend.error} />
    </section>
  );
}

const DELIVERY_COLUMNS: Column<Schemas["WebhookDelivery"]>[] = [
  { header: "Event", cell: (delivery) => delivery.event },
  { header: "Attempt", cell: (delivery) => delivery.attempt },
  { header: "Answer", cell: (delivery) => delivery.status_code ?? delivery.error ?? "–" },
  { header: "Time", cell: (delivery) => `${delivery.duration_ms} ms` },
  { header: "When", cell: (delivery) => when(delivery.created_at) },
];
