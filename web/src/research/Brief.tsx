import { Fragment, type ReactNode, useState } from "react";
import type { Schemas } from "../api/client";
import { ShortAnswer } from "./ShortAnswer";
import { SourceLink } from "./SourceLink";

type Result = Pick<Schemas["ResearchResult"], "status" | "answer" | "brief" | "sources" | "citations">;

/** The brief as readable text: `**title**` lines as headings, `- ` lines as a list, `[n]` markers as buttons. */
function BriefText({ brief, sources, onCite }: { brief: string; sources: Schemas["SourceDto"][]; onCite: (index: number) => void }) {
  const inline = (text: string, key: string): ReactNode[] =>
    text.split(/(\[\d+\])/).map((part, i) => {
      const marker = /^\[(\d+)\]$/.exec(part);
      const source = marker ? sources[Number(marker[1]) - 1] : undefined;
      if (!marker || !source) return <Fragment key={`${key}-${i}`}>{part.replaceAll("**", "")}</Fragment>;
      return (
        <button
          key={`${key}-${i}`}
          type="button"
          className="cite"
          aria-label={`Source ${marker[1]}: ${source.title}`}
          onClick={() => onCite(Number(marker[1]) - 1)}
        >
          {marker[1]}
        </button>
      );
    });
  const blocks: ReactNode[] = [];
  let items: ReactNode[] = [];
  const flushList = () => {
    if (items.length > 0) blocks.push(<ul key={`list-${blocks.length}`}>{items}</ul>);
    items = [];
  };
  brief.split("\n").forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return flushList();
    const heading = /^\*\*(.+)\*\*$/.exec(line);
    if (line.startsWith("- ") || line.startsWith("* ")) return void items.push(<li key={index}>{inline(line.slice(2), String(index))}</li>);
    flushList();
    blocks.push(heading ? <h3 key={index}>{heading[1]}</h3> : <p key={index}>{inline(line, String(index))}</p>);
  });
  flushList();
  return <div className="brief">{blocks}</div>;
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
                <SourceLink url={source.url} title={source.title} /> <span className="muted">{source.domain}</span>
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
