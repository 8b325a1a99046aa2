import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useSearchParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../api/client";
import { ErrorNotice } from "../components/ErrorNotice";
import type { SnippetRequest } from "../quickstart/snippets";
import { CancelOutcome } from "../research/CancelOutcome";
import { JobProgress } from "../research/JobProgress";
import { JobResult } from "../research/JobResult";
import { useJobStream } from "../research/useJobStream";
import { GetCode } from "./playground/GetCode";
import { PlanReview, planFields, type ReviewedPlan } from "./playground/PlanReview";
import { PriceQuote } from "./playground/PriceQuote";
import { SearchSource } from "./playground/SearchSource";
import { type PlaygroundForm, saveForm, savedForm, usesMoreOptions } from "./playground/savedForm";

type Mode = Schemas["ModePrice"]["mode"];

/** "a.com, b.org\nc.net" -> ["a.com", "b.org", "c.net"] */
const domainList = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function describeMode(mode: Schemas["ModePrice"]): string {
  const price = mode.credits === null ? "metered, up to your max credits" : `${mode.credits} credits ($${(mode.credits / 100).toFixed(2)})`;
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
  // A suggestion picked on the overview arrives as ?question=.
  const [question, setQuestion] = useState(saved?.question ?? params.get("question") ?? "");
  const [mode, setMode] = useState<Mode>((saved?.mode ?? params.get("mode") ?? "standard") as Mode);
  const [maxCredits, setMaxCredits] = useState(saved?.maxCredits ?? params.get("max_credits") ?? "");
  const [wallclock, setWallclock] = useState(saved?.wallclock ?? "");
  const [include, setInclude] = useState(saved?.include ?? "");
  const [exclude, setExclude] = useState(saved?.exclude ?? "");
  const [schemaText, setSchemaText] = useState(saved?.schemaText ?? "");
  // Opened from a collection's page (?collection=<id>): that collection is ticked.
  const [chosenCollections, setChosenCollections] = useState<string[]>(
    () => saved?.collections ?? (params.get("collection") ? [params.get("collection")!] : []),
  );
  const [alsoWeb, setAlsoWeb] = useState(saved?.alsoWeb ?? false);
  // The folded options stay as the person left them: ticking or unticking a collection never folds them.
  const [moreOpen, setMoreOpen] = useState(() => chosenCollections.length > 0 || usesMoreOptions(saved));
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
    if (asked) setQuestion((current) => current || asked);
  }, [job.data]);

  /** The request the form describes (what "Run research" sends, less the playground's own fields), and what keeps the schema out. */
  function formRequest(): { request: SnippetRequest; schemaProblem: string | null } {
    let responseSchema: Record<string, unknown> | undefined;
    let schemaProblem: string | null = null;
    if (schemaText.trim()) {
      try {
        responseSchema = JSON.parse(schemaText) as Record<string, unknown>;
      } catch {
        schemaProblem = "The JSON Schema is not valid JSON.";
      }
    }
    const request: SnippetRequest = {
      question,
      mode,
      ...(metered ? { max_credits: Number(maxCredits) } : {}),
      ...(wallclock ? { max_wallclock_secs: Number(wallclock) } : {}),
      ...(include.trim() ? { include_domains: domainList(include) } : {}),
      ...(exclude.trim() ? { exclude_domains: domainList(exclude) } : {}),
      ...(responseSchema ? { response_schema: responseSchema } : {}),
      ...(chosenCollections.length > 0 ? { collections: chosenCollections, web: alsoWeb } : {}),
    };
    return { request, schemaProblem };
  }
  const built = formRequest();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (built.schemaProblem) return setProblem(new Error(built.schemaProblem));
    const body: Schemas["ResearchRequest"] = {
      ...built.request,
      include_sources: true,
      async: true, // always followed live here, whatever the job's length
      ...planFields(plan, question, mode),
    };
    const form: PlaygroundForm = { question, mode, maxCredits, wallclock, include, exclude, schemaText, collections: chosenCollections, alsoWeb };
    setBusy(true);
    try {
      // One key per submission: a retried or double-clicked submit never starts (or pays for) two jobs.
      const accepted = await dataOf(api.POST("/api/playground/research", { body, params: { header: { "idempotency-key": crypto.randomUUID() } } }));
      saveForm(accepted.id, form);
      setPlan(null); // a plan runs once
      const { max_credits } = built.request; // a max job's reservation, which its mode's price does not say
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
      <SearchSource onPick={setQuestion} />
      <form onSubmit={submit} aria-label="Research request" className="card">
        <label>
          Question
          <textarea
            required
            rows={3}
            maxLength={2000}
            value={question}
            onChange={(e) => setQuestion(e.target.value)}
            placeholder="What did presidents say about the Panama Canal?"
          />
        </label>
        <div className="row">
          <label>
            Mode
            <select value={mode} onChange={(e) => setMode(e.target.value as Mode)} aria-describedby="mode-help">
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
              <input type="number" required min={1} step={1} value={maxCredits} onChange={(e) => setMaxCredits(e.target.value)} />
            </label>
          )}
          <label>
            Wall-clock limit (s)
            <input
              type="number"
              min={1}
              step={1}
              value={wallclock}
              onChange={(e) => setWallclock(e.target.value)}
              placeholder={chosen ? String(chosen.max_wallclock_secs) : ""}
            />
          </label>
        </div>
        <p id="mode-help" className="muted">
          {chosen ? describeMode(chosen) : modes.isError ? "The modes could not be loaded." : "Loading the modes…"}
        </p>
        <details open={moreOpen} onToggle={(e) => setMoreOpen(e.currentTarget.open)}>
          <summary>Sources and typed output</summary>
          {collections.data && collections.data.length > 0 && (
            <fieldset className="choices">
              <legend>Search your collections (instead of the default sources)</legend>
              {collections.data.map((collection) => (
                <label key={collection.id} className="check">
                  <input
                    type="checkbox"
                    checked={chosenCollections.includes(collection.id)}
                    onChange={(e) => setChosenCollections((ids) => (e.target.checked ? [...ids, collection.id] : ids.filter((id) => id !== collection.id)))}
                  />
                  {collection.name}
                </label>
              ))}
              {chosenCollections.length > 0 && (
                <label className="check">
                  <input type="checkbox" checked={alsoWeb} onChange={(e) => setAlsoWeb(e.target.checked)} />
                  Also search the default sources
                </label>
              )}
            </fieldset>
          )}
          <div className="row">
            <label>
              Only these domains
              <input value={include} onChange={(e) => setInclude(e.target.value)} placeholder="congress.gov, loc.gov" />
            </label>
            <label>
              Never these domains
              <input value={exclude} onChange={(e) => setExclude(e.target.value)} placeholder="example.com" />
            </label>
          </div>
          <label>
            JSON Schema of the typed output (optional)
            <textarea
              rows={6}
              value={schemaText}
              onChange={(e) => setSchemaText(e.target.value)}
              placeholder='{"type": "object", "properties": {"answer": {"type": "string"}}}'
              spellCheck={false}
            />
          </label>
        </details>
        <PriceQuote body={built.schemaProblem ? null : ({ ...built.request, include_sources: true, async: true } as Schemas["ResearchRequest"])} />
        <PlanReview
          body={built.schemaProblem ? null : ({ ...built.request, include_sources: true, async: true } as Schemas["ResearchRequest"])}
          plan={plan}
          onPlan={setPlan}
        />
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
      <GetCode request={built.request} problem={built.schemaProblem} />
      <ErrorNotice error={problem ?? stream.problem} />
      <CancelOutcome answer={cancelAnswer} />
      {jobId && !result && <JobProgress state={stream} reservedCredits={reservedCredits} maxWaves={jobMode?.max_waves ?? null} />}
      {result && <JobResult result={result} />}
    </section>
  );
}
