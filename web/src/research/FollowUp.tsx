import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";

type Mode = Schemas["ResearchRequest"]["mode"];

/** The jobs before this one in its thread (oldest first), each a link to its page; nothing for a job that follows none. */
export function JobThread({ job }: { job: Pick<Schemas["ResearchResult"], "id" | "thread"> }) {
  if (job.thread.length === 0) return null;
  return (
    <nav aria-label="Thread">
      <h2>Thread</h2>
      <p className="muted">This job follows up the ones before it: it started from their sources and read only what its question adds.</p>
      <ol>
        {job.thread.map((id, index) => (
          <li key={id}>
            <Link to={`/jobs/${id}`}>{index === 0 ? "First question" : `Follow-up ${index}`}</Link> <code>{id}</code>
          </li>
        ))}
        <li aria-current="page">
          This job <code>{job.id}</code>
        </li>
      </ol>
    </nav>
  );
}

/**
 * "Ask a follow-up" on a succeeded job: a question that starts from this job's sources (never read
 * again) and pays for what it adds; the quote says what it costs and why before it runs. Submitted
 * asynchronously, then the new job's page follows it.
 */
export function AskFollowUp({ jobId }: { jobId: string }) {
  const navigate = useNavigate();
  const [question, setQuestion] = useState("");
  const [mode, setMode] = useState<Mode>("standard");
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const modes = useQuery({ queryKey: ["modes"], queryFn: () => dataOf(api.GET("/api/billing/modes")), staleTime: Infinity });
  const asked = question.trim();
  const quote = useQuery({
    queryKey: ["follow-up-quote", jobId, mode, asked],
    queryFn: () => dataOf(api.POST("/api/playground/research/quote", { body: { question: asked, mode, include_sources: true, previous_job_id: jobId } })),
    enabled: asked.length > 0 && mode !== "max",
    retry: false,
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      const accepted = await dataOf(
        api.POST("/api/playground/research", {
          body: { question: asked, mode, include_sources: true, previous_job_id: jobId, async: true },
          params: { header: { "idempotency-key": crypto.randomUUID() } },
        }),
      );
      navigate(`/jobs/${accepted.id}`);
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form aria-labelledby="follow-up-title" onSubmit={submit}>
      <h2 id="follow-up-title">Ask a follow-up</h2>
      <p className="muted">Starts from this job's sources without reading them again, searches only for what your question adds, and costs less.</p>
      <label>
        Follow-up question
        <textarea value={question} onChange={(event) => setQuestion(event.target.value)} rows={2} maxLength={2000} required />
      </label>
      <label>
        Mode
        <select value={mode} onChange={(event) => setMode(event.target.value as Mode)}>
          {(modes.data ?? [])
            .filter((m) => m.credits !== null)
            .map((m) => (
              <option key={m.mode} value={m.mode}>
                {m.mode}
              </option>
            ))}
        </select>
      </label>
      {quote.data?.follow_up && (
        <p role="status" className="muted">
          {quote.data.follow_up.reason}
        </p>
      )}
      <ErrorNotice error={quote.error ?? problem} />
      <button type="submit" disabled={busy || asked.length === 0}>
        Ask the follow-up
      </button>
    </form>
  );
}
