import type { Schemas } from "../api/client";

const CONFIDENCE_LABEL = { high: "High confidence", medium: "Medium confidence", low: "Low confidence" } as const;

/**
 * The short answer above the brief, with its confidence as a labelled badge and its sources as the
 * brief's [n] buttons. A job without one says so plainly, so nobody takes the brief's opening line
 * for an answer the sources do not give.
 */
export function ShortAnswer({
  answer,
  sources,
  onCite,
}: {
  answer: Schemas["ResearchResult"]["answer"];
  sources: Schemas["SourceDto"][];
  onCite: (index: number) => void;
}) {
  return (
    <section aria-labelledby="short-answer-title" className="card short-answer">
      <h2 id="short-answer-title">Short answer</h2>
      {answer ? (
        <p>
          <span className="answer-text">{answer.text}</span>
          {answer.citations
            .filter((index) => sources[index] !== undefined)
            .map((index) => (
              <button key={index} type="button" className="cite" aria-label={`Source ${index + 1}: ${sources[index]!.title}`} onClick={() => onCite(index)}>
                {index + 1}
              </button>
            ))}{" "}
          <span className={`confidence confidence-${answer.confidence}`}>{CONFIDENCE_LABEL[answer.confidence]}</span>
        </p>
      ) : (
        <p className="muted">The sources read do not answer this question. The brief says what they do cover.</p>
      )}
    </section>
  );
}
