import type { ReactNode } from "react";
import { CopyButton } from "./CopyButton";

/** A key just created or reset: its plaintext, shown this once, with a copy button. */
export function NewKey({ plaintext, children }: { plaintext: string; children?: ReactNode }) {
  return (
    <section aria-label="New key" className="reveal">
      <p>
        <strong>Copy this key now: it is shown only once.</strong> Anyone with it can spend your credits.
      </p>
      <code aria-label="Key">{plaintext}</code>
      <div className="row">
        <CopyButton text={plaintext} className="" />
        {children}
      </div>
    </section>
  );
}
