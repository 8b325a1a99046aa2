import { type KeyboardEvent, useId, useState } from "react";
import { CopyButton } from "../components/CopyButton";

export interface Snippet {
  /** The tab's name: "curl", "TypeScript (SDK)", "Python (SDK)", "CLI", "MCP config". */
  label: string;
  code: string;
}

/**
 * Code in tabs, one snippet at a time, each with its copy button: the same request as curl, the
 * SDKs, CLI (and MCP). Tabs as ARIA describes them: arrow keys move between them.
 */
export function SnippetTabs({ snippets, label }: { snippets: Snippet[]; label: string }) {
  const [chosen, setChosen] = useState(0);
  const id = useId();
  const current = snippets[Math.min(chosen, snippets.length - 1)]!;
  function move(event: KeyboardEvent) {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    const next = (chosen + step + snippets.length) % snippets.length;
    setChosen(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  }
  return (
    <div className="snippets">
      <div role="tablist" aria-label={label} onKeyDown={move}>
        {snippets.map((snippet, index) => (
          <button
            key={snippet.label}
            id={`${id}-tab-${index}`}
            type="button"
            role="tab"
            aria-selected={index === chosen}
            aria-controls={`${id}-panel`}
            tabIndex={index === chosen ? 0 : -1}
            onClick={() => setChosen(index)}
          >
            {snippet.label}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${chosen}`}>
        <pre>
          <code>{current.code}</code>
        </pre>
        <CopyButton text={current.code} label={current.label} />
      </div>
    </div>
  );
}
