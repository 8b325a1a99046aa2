import type { JobStreamState } from "./useJobStream";

const STAGES: Record<string, string> = {
  planning: "Planning the searches",
  searching: "Searching",
  reading: "Reading pages",
  analyzing: "Weighing the evidence",
  reflecting: "Deciding what to read next",
  synthesizing: "Writing the brief",
  critic: "Checking the brief",
  typed_output: "Filling your schema",
  done: "Done",
};

const usd = (value: number) => `$${value.toFixed(value < 1 ? 3 : 2)}`;

/** A running job as it happens: stage, wave, searches, pages, cost against its cap, pages as they are read. */
export function JobProgress({ state, costCapUsd, maxWaves }: { state: JobStreamState; costCapUsd: number | null; maxWaves: number | null }) {
  const { progress, sources, status } = state;
  return (
    <section aria-label="Progress" className="card progress-card">
      <p role="status" aria-live="polite">
        <strong>{progress ? (STAGES[progress.stage] ?? progress.stage) : status === "pending" || !status ? "Queued" : status}</strong>
        {progress && progress.wave > 0 && ` · wave ${progress.wave}${maxWaves ? ` of ${maxWaves}` : ""}`}
      </p>
      <dl className="figures">
        <div>
          <dt>Searches</dt>
          <dd>{progress?.searches ?? 0}</dd>
        </div>
        <div>
          <dt>Pages read</dt>
          <dd>{progress?.pages ?? 0}</dd>
        </div>
        <div>
          <dt>Cost so far</dt>
          <dd>
            {usd(progress?.cost_usd ?? 0)}
            {costCapUsd !== null && <span className="muted"> of {usd(costCapUsd)}</span>}
          </dd>
        </div>
      </dl>
      {costCapUsd !== null && <progress aria-label="Cost so far against the cap" max={costCapUsd} value={Math.min(progress?.cost_usd ?? 0, costCapUsd)} />}
      <h3>Pages read</h3>
      {sources.length === 0 ? (
        <p className="muted">None yet.</p>
      ) : (
        <ol aria-label="Pages read" className="read-list">
          {sources.map((source) => (
            <li key={source.url}>
              {source.title} <span className="muted">{source.domain}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
