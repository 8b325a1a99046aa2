import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useReducer, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { CollectionChoice } from "../components/CollectionChoice";
import { ErrorNotice } from "../components/ErrorNotice";
import { usdFromCents } from "../format";
import { CancelOutcome } from "../research/CancelOutcome";
import { JobProgress } from "../research/JobProgress";
import { JobResult } from "../research/JobResult";
import { useJobStream } from "../research/useJobStream";
import { GetCode } from "./playground/GetCode";
import { PlanReview, planFields, type ReviewedPlan } from "./playground/PlanReview";
import { PriceQuote } from "./playground/PriceQuote";
import { SearchSource } from "./playground/SearchSource";
import { initialForm, type Mode, requestBodyFor, toggleCollection, updateForm } from "./playground/form";
import { saveForm, savedForm, usesMoreOptions } from "./playground/savedForm";

function describeMode(mode: Schemas["ModePrice"]): string {
  const price = mode.credits === null ? "metered, up to your max credits" : `${mode.credits} credits (${usdFromCents(mode.credits)})`;
  return `${price} · up to ${mode.max_sources} sources, ${mode.max_waves} wave${mode.max_waves > 1 ? "s" : ""}${mode.critic ? " + critic" : ""}, ${mode.max_wallclock_secs} s`;
}

/**
 * The playground: a research request built in a form (shown as code to take away), run as an async
 * job and followed live over SSE. The job id (with its mode, and a max job's max credits) sits in
 * the URL, so a reload resumes the stream, which replays every event of the job; the form comes
 * back from the tab's session storage, or else the question from the job itself.
 */
export function Playground() {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const jobId = params.get("job");
  const modes = useQuery({ queryKey: ["modes"], queryFn: () => dataOf(api.GET("/api/billing/modes")), staleTime: Infinity });
  // The form as it was when this job started (a reload mid-job), read once.
  const [saved] = useState(() => savedForm(jobId));
  // One value for the whole form, changed only through `update`.
  const [form, update] = useReducer(updateForm, null, () => initialForm(saved, params));
  const { question, mode } = form;
  // The folded options stay as the person left them: ticking or unticking a collection never folds them.
  const [moreOpen, setMoreOpen] = useState(() => usesMoreOptions(form));
  const collections = useQuery({ queryKey: ["collections", "all"], queryFn: () => dataOf(api.GET("/api/collections", { params: { query: { limit: 100 } } })) });
  const [problem, setProblem] = useState<unknown>(null);
  // A plan reviewed (and maybe edited) before Run: Run sends it with plan_id.
  const [plan, setPlan] = useState<ReviewedPlan | null>(null);
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  // The cancel's answer (the job as the cancel left it, and what the cancel did), for this job only.
  const [cancelled, setCancelled] = useState<Schemas["CancelResult"] | null>(null);
  const cancelAnswer = cancelled?.id === jobId ? cancelled : null;
  const stream = useJobStream(jobId ? `/api/playground/research/${jobId}/events` : null);
  // The cancel's answer is final: shown at once, even before the stream brings the same result.
  const result = stream.result ?? cancelAnswer;
  const chosen = modes.data?.find((m) => m.mode === mode);
  // A mode without a fixed price is metered: it needs max_credits, which are also its cost cap.
  const metered = chosen?.credits === null;
  const jobMode = modes.data?.find((m) => m.mode === params.get("mode"));
  // What the job reserved: its mode's price, or a max job's max credits (in the URL).
  const reservedCredits = jobMode?.credits ?? (params.get("max_credits") ? Number(params.get("max_credits")) : null);
  const running = jobId !== null && result === null && !stream.problem;
  // A job opened without its saved form (another tab, a shared link): at least its question comes back.
  const job = useQuery({
    queryKey: ["job", jobId],
    queryFn: () => dataOf(api.GET("/api/playground/research/{id}", { params: { path: { id: jobId! } } })),
    enabled: jobId !== null && !saved,
  });
  useEffect(() => {
    const asked = job.data?.question;
    if (asked) update((current) => ({ question: current.question || asked }));
  }, [job.data]);

  // The request the form makes: priced, planned, sent and shown as code alike.
  const built = requestBodyFor(form, { metered });
  // What the quote and the plan review ask about: nothing while the schema is not JSON.
  const askable = built.problem ? null : built.body;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (built.problem) return setProblem(new Error(built.problem));
    // Run sends the form's request, with a reviewed plan's fields when the plan is for this question and mode.
    const body: Schemas["ResearchRequest"] = { ...built.body, ...planFields(plan, question, mode) };
    setBusy(true);
    try {
      // One key per submission: a retried or double-clicked submit never starts (or pays for) two jobs.
      const accepted = await dataOf(api.POST("/api/playground/research", { body, params: { header: { "idempotency-key": crypto.randomUUID() } } }));
      saveForm(accepted.id, form);
      setPlan(null); // a plan runs once
      const { max_credits } = built.body; // a max job's reservation, which its mode's price does not say
      setParams(max_credits === undefined || max_credits === null ? { job: accepted.id, mode } : { job: accepted.id, mode, max_credits: String(max_credits) });
      void queryClient.invalidateQueries({ queryKey: ["balance"] });
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(false);
    }
  }

  async function cancel() {
    if (!jobId) return;
    setCancelling(true);
    try {
      setCancelled(await dataOf(api.DELETE("/api/playground/research/{id}", { params: { path: { id: jobId } } })));
    } catch (error) {
      setProblem(error);
    } finally {
      setCancelling(false);
    }
  }

  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">Playground</h1>
      <SearchSource onPick={(picked) => update({ question: picked })} />
      <form onSubmit={submit} aria-label="Research request" className="card">
        <label>
          Question
          <textarea
            required
            rows={3}
            maxLength={2000}
            value={question}
            onChange={(e) => update({ question: e.target.value })}
            placeholder="What did presidents say about the Panama Canal?"
          />
        </label>
        <div className="row">
          <label>
            Mode
            <select value={mode} onChange={(e) => update({ mode: e.target.value as Mode })} aria-describedby="mode-help">
              {(modes.data ?? []).map((m) => (
                <option key={m.mode} value={m.mode}>
                  {m.mode}
                  {m.credits === null ? " (metered)" : ` (${m.credits} credits)`}
                </option>
              ))}
            </select>
          </label>
          {metered && (
            <label>
              Max credits
              <input type="number" required min={1} step={1} value={form.maxCredits} onChange={(e) => update({ maxCredits: e.target.value })} />
            </label>
          )}
          <label>
            Wall-clock limit (s)
            <input
              type="number"
              min={1}
              step={1}
              value={form.wallclock}
              onChange={(e) => update({ wallclock: e.target.value })}
              placeholder={chosen ? String(chosen.max_wallclock_secs) : ""}
            />
          </label>
        </div>
        <p id="mode-help" className="muted">
          {chosen ? describeMode(chosen) : modes.isError ? "The modes could not be loaded." : "Loading the modes…"}
        </p>
        <details open={moreOpen} onToggle={(e) => setMoreOpen(e.currentTarget.open)}>
          <summary>Sources and typed output</summary>
          <CollectionChoice
            collections={collections.data}
            chosen={form.collections}
            alsoWeb={form.alsoWeb}
            onToggle={(id, checked) => update(toggleCollection(id, checked))}
            onAlsoWeb={(checked) => update({ alsoWeb: checked })}
          />
          <div className="row">
            <label>
              Only these domains
              <input value={form.include} onChange={(e) => update({ include: e.target.value })} placeholder="congress.gov, loc.gov" />
            </label>
            <label>
              Never these domains
              <input value={form.exclude} onChange={(e) => update({ exclude: e.target.value })} placeholder="example.com" />
            </label>
          </div>
          <label>
            JSON Schema of the typed output (optional)
            <textarea
              rows={6}
              value={form.schemaText}
              onChange={(e) => update({ schemaText: e.target.value })}
              placeholder='{"type": "object", "properties": {"answer": {"type": "string"}}}'
              spellCheck={false}
            />
          </label>
        </details>
        <PriceQuote body={askable} />
        <PlanReview body={askable} plan={plan} onPlan={setPlan} />
        <div className="row">
          <button type="submit" disabled={busy || running}>
            {busy ? "Starting…" : "Run research"}
          </button>
          {running && (
            <button type="button" className="secondary" onClick={cancel} disabled={cancelling}>
              {cancelling ? "Cancelling…" : "Cancel the job"}
            </button>
          )}
        </div>
      </form>
      <GetCode body={built.body} problem={built.problem} />
      <ErrorNotice error={problem ?? stream.problem} />
      <CancelOutcome answer={cancelAnswer} />
      {jobId && !result && <JobProgress state={stream} reservedCredits={reservedCredits} maxWaves={jobMode?.max_waves ?? null} />}
      {result && <JobResult result={result} />}
    </section>
  );
}
