import { useState } from "react";

/**
 * Copies a text to the clipboard and says so on itself ("Copied") until the text changes, so a
 * person sees which of several snippets they took. `label` names it for screen readers when the
 * page has more than one.
 */
export function CopyButton({ text, label, className = "secondary" }: { text: string; label?: string; className?: string }) {
  const [copiedText, setCopiedText] = useState<string | null>(null);
  const copied = copiedText === text;
  return (
    <button
      type="button"
      className={className}
      aria-label={label ? `${copied ? "Copied" : "Copy"} ${label}` : undefined}
      onClick={async () => {
        await navigator.clipboard.writeText(text);
        setCopiedText(text);
      }}
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
