import type { Schemas } from "../api/client";
import { credits, usdFromCents, workCredits } from "../format";
import { BriefWithSources } from "./Brief";

/** A message as a sentence: its own full stop kept, one added if it has none (jobs that failed before the service's messages had one). */
const sentence = (text: string) => (/[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/**
 * A finished job: its outcome (what it was charged, in credits and USD, and its metered work, named
 * as such so it never reads as a second price), the brief with its sources, and the typed object
 * when a schema was given.
 */
export function JobResult({ result }: { result: Schemas["ResearchResult"] }) {
  return (
    <section aria-label="Result">
      <dl className="figures" aria-label="Outcome">
        <div>
          <dt>Status</dt>
          <dd>{result.status}</dd>
        </div>
        <div>
          <dt>Charged</dt>
          <dd>
            <span>{credits(result.credits_charged)}</span> credit{result.credits_charged === 1 ? "" : "s"}{" "}
            <span className="muted">({usdFromCents(result.credits_charged)})</span>
          </dd>
        </div>
        <div>
          <dt>Metered work</dt>
          <dd>{workCredits(result.cost_usd)} credits</dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{result.latency_ms === null ? "–" : `${(result.latency_ms / 1000).toFixed(1)} s`}</dd>
        </div>
        <div>
          <dt>Waves</dt>
          <dd>{result.wave_count ?? "–"}</dd>
        </div>
      </dl>
      {result.charge_basis && (
        <p className="card" aria-label="Why this charge">
          {result.charge_basis.reason}
        </p>
      )}
      <p className="muted">
        Charged is what you pay (1 credit = $0.01). Metered work is what the job's searches, reads and writing came to at the operation prices: a cancelled job
        pays it rounded up to whole credits, a succeeded one its mode's price (max: its metered work, up to its max credits), or only its metered work when
        nothing it read addresses the question, a failed one nothing.
      </p>
      {result.error && (
        <p role="alert">
          {sentence(result.error)}
          {result.status === "failed" && " Nothing was charged."}
        </p>
      )}
      {result.status === "cancelled" && (
        <p className="card">
          This job was cancelled: it was charged {result.credits_charged} credit{result.credits_charged === 1 ? "" : "s"} for the work already done, and the
          rest of its reservation went back to your balance.
        </p>
      )}
      {result.partial && result.brief === null && result.status === "cancelled" && result.sources.length > 0 && (
        <p className="card" aria-label="No brief">
          No brief: the cancel stopped the job while it was writing, after it had read its {result.sources.length} source
          {result.sources.length === 1 ? "" : "s"}.
        </p>
      )}
      {result.partial && result.brief !== null && (
        <p className="card" aria-label="Partial brief">
          Partial brief: the job stopped before the end of its research, so this brief is written only from the {result.sources.length} source
          {result.sources.length === 1 ? "" : "s"} it had read by then. Writing it cost nothing extra.
        </p>
      )}
      {(result.status === "succeeded" || result.brief !== null) && <BriefWithSources result={result} />}
      {result.typed !== undefined && result.typed !== null && (
        <section aria-label="Typed output">
          <h2>Typed output</h2>
          <pre className="typed">{JSON.stringify(result.typed, null, 2)}</pre>
        </section>
      )}
    </section>
  );
}
