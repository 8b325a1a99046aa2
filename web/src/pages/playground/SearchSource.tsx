import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router-dom";
import { api, dataOf } from "../../api/client";

/**
 * What research searches when a job names no collection, and questions it answers well: a fresh
 * `npm start` holds only State of the Union addresses, and a newcomer who does not know it asks
 * questions it cannot answer (issue 38). On the playground a suggestion fills the question; on
 * the overview it opens the playground with it.
 */
export function SearchSource({ onPick }: { onPick?: (question: string) => void }) {
  const source = useQuery({ queryKey: ["search-source"], queryFn: () => dataOf(api.GET("/api/dashboard/search-source")), staleTime: Infinity });
  if (!source.data) return null;
  const { provider, summary, domain_filters: domainFilters, example_questions: questions } = source.data;
  return (
    <section aria-labelledby="search-source-title" className="card search-source">
      <h2 id="search-source-title">What research searches</h2>
      <p>{summary}</p>
      {/* Only a web backend filters domains in a way worth saying (SearXNG cannot take several). */}
      {provider !== "corpus" && <p className="muted">Domain filters: {domainFilters}</p>}
      {questions.length > 0 && (
        <>
          {/* Not named "Question…": the playground's field is found by that label. */}
          <p className="muted" id="example-questions-help">
            Try one it answers well{onPick ? " (it fills the form)" : ""}:
          </p>
          <ul className="example-questions" aria-labelledby="example-questions-help">
            {questions.map((question) => (
              <li key={question}>
                {onPick ? (
                  <button type="button" className="secondary" onClick={() => onPick(question)}>
                    {question}
                  </button>
                ) : (
                  <Link to={`/playground?question=${encodeURIComponent(question)}`}>{question}</Link>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
