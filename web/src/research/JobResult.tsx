import type { Schemas } from "../api/client";
import { BriefWithSources } from "./Brief";

/** A finished job: its outcome and cost, the brief with its sources, and the typed object when a schema was given. */
export function JobResult({ result }: { result: Schemas["ResearchResult"] }) {
  return (
    <section aria-label="Result">
      <dl className="figures" aria-label="Outcome">
        <div>
          <dt>Status</dt>
          <dd>{result.status}</dd>
        </div>
        <div>
          <dt>Credits charged</dt>
          <dd>{result.credits_charged.toLocaleString("en-US")}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>${result.cost_usd.toFixed(4)}</dd>
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
      {result.error && (
        <p role="alert">
          {result.error}
          {result.status === "failed" && " Nothing was charged."}
        </p>
      )}
      {result.status === "cancelled" && (
        <p className="card">
          This job was cancelled: it was charged {result.credits_charged} credit{result.credits_charged === 1 ? "" : "s"} for the work already done, and the rest of its
          reservation went back to your balance.
        </p>
      )}
      {result.status === "succeeded" && <BriefWithSources result={result} />}
      {result.typed !== undefined && result.typed !== null && (
        <section aria-label="Typed output">
          <h2>Typed output</h2>
          <pre className="typed">{JSON.stringify(result.typed, null, 2)}</pre>
        </section>
      )}
    </section>
  );
}
