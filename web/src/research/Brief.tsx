import { Fragment, type ReactNode, useState } from "react";
import type { Schemas } from "../api/client";
import { inlineParts, parseBrief } from "../../../src/research/engine/write/brief-format";
import { ShortAnswer } from "./ShortAnswer";
import { SourceByline } from "./SourceByline";
import { SourceLink } from "./SourceLink";

type Result = Pick<Schemas["ResearchResult"], "status" | "answer" | "brief" | "sources" | "citations">;

/**
 * The brief as readable text, read by the service's own reader of its format (one module writes
 * and reads it: src/research/engine/write/brief-format.ts, pure and import-free, so the dashboard
 * bundles it): `## ` sections as headings, `**group**` lines as the headings of the findings under
 * them, bullets as lists, the opening as a paragraph, `[n]` markers as buttons that show source n.
 */
function BriefText({ brief, sources, onCite }: { brief: string; sources: Schemas["SourceDto"][]; onCite: (index: number) => void }) {
  const inline = (text: string, key: string): ReactNode[] =>
    inlineParts(text).map((part, i) => {
      const source = "source" in part ? sources[part.source - 1] : undefined;
      // Emphasis inside a line is not rendered: the format has none, and a model's stray ** is noise.
      if (!("source" in part) || !source)
        return <Fragment key={`${key}-${i}`}>{"text" in part ? part.text.replaceAll("**", "") : `[${part.source}]`}</Fragment>;
      return (
        <button
          key={`${key}-${i}`}
          type="button"
          className="cite"
          aria-label={`Source ${part.source}: ${source.title}`}
          onClick={() => onCite(part.source - 1)}
        >
          {part.source}
        </button>
      );
    });
  return (
    <div className="brief">
      {parseBrief(brief).map((block, b) => (
        <Fragment key={b}>
          {block.heading?.kind === "section" && <h3>{block.heading.title}</h3>}
          {block.heading?.kind === "group" && <h4>{block.heading.title}</h4>}
          {block.bullets ? (
            <ul>
              {block.lines.map((line, i) => (
                <li key={i}>{inline(line, `${b}-${i}`)}</li>
              ))}
            </ul>
          ) : (
            block.lines.length > 0 && <p>{inline(block.lines.join(" "), String(b))}</p>
          )}
        </Fragment>
      ))}
    </div>
  );
}

/**
 * A finished job's short answer, then its brief, with clickable citations: a click on [n] (in the
 * answer or the brief) highlights source n in the list, brings it into view and shows the passages
 * of that source the brief rests on.
 */
export function BriefWithSources({ result }: { result: Result }) {
  const [selected, setSelected] = useState<number | null>(null);
  function cite(index: number) {
    setSelected(index);
    document.getElementById(`source-${index + 1}`)?.scrollIntoView({ block: "nearest", behavior: "smooth" });
  }
  return (
    <>
      {/* Only a succeeded job has a short answer; a failed or stopped one's null says nothing of its sources. */}
      {result.status === "succeeded" && <ShortAnswer answer={result.answer} sources={result.sources} onCite={cite} />}
      <div className="brief-layout">
        <section aria-label="Brief">
          {result.brief ? <BriefText brief={result.brief} sources={result.sources} onCite={cite} /> : <p className="muted">No brief.</p>}
        </section>
        <section aria-label="Sources">
          <h2>Sources</h2>
          {result.sources.length === 0 && <p className="muted">No sources.</p>}
          <ol className="sources">
            {result.sources.map((source, index) => (
              <li
                key={source.url}
                id={`source-${index + 1}`}
                aria-current={selected === index ? "true" : undefined}
                className={selected === index ? "selected" : undefined}
              >
                <SourceLink url={source.url} title={source.title} /> <span className="muted">{source.domain}</span> <SourceByline source={source} />
                {source.summary && <p className="summary">{source.summary}</p>}
                {selected === index && (
                  <ul aria-label={`Passages of source ${index + 1}`} className="quotes">
                    {result.citations
                      .filter((citation) => citation.source === index)
                      .map((citation, i) => (
                        <li key={i}>
                          <blockquote>{citation.quote}</blockquote>
                        </li>
                      ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </>
  );
}
