import { credits, workCredits } from "../format";
import { SourceByline } from "./SourceByline";
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

/**
 * A running job as it happens: stage, wave, searches, pages asked for, its work so far in credits
 * against what it reserved, and the pages read. "Pages requested" counts reads as they start; a
 * page joins "Pages read" when the wave's reads are in and it had text, so the two differ mid-wave.
 */
export function JobProgress({ state, reservedCredits, maxWaves }: { state: JobStreamState; reservedCredits: number | null; maxWaves: number | null }) {
  const { progress, sources, status } = state;
  const workUsd = progress?.cost_usd ?? 0;
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
          <dt>Pages requested</dt>
          <dd>{progress?.pages ?? 0}</dd>
        </div>
        <div>
          <dt>Work so far</dt>
          <dd>
            {workCredits(workUsd)} credits
            {reservedCredits !== null && <span className="muted"> of {credits(reservedCredits)} reserved</span>}
          </dd>
        </div>
      </dl>
      {reservedCredits !== null && (
        <progress aria-label="Work so far against the reservation" max={reservedCredits} value={Math.min(workUsd * 100, reservedCredits)} />
      )}
      <p className="muted">
        Nothing is charged while the job runs. Cancelling charges the work so far (rounded up to whole credits); a job that succeeds is charged its mode's price
        (max: its work, up to its max credits).
      </p>
      <h3>Pages read</h3>
      {sources.length === 0 ? (
        <p className="muted">None yet: a wave's pages are listed once its reads are in.</p>
      ) : (
        <ol aria-label="Pages read" className="read-list">
          {sources.map((source) => (
            <li key={source.url}>
              {source.title} <span className="muted">{source.domain}</span> <SourceByline source={source} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
