import { Fragment } from "react";

/**
 * An email address (or similar) that may wrap after "@", "." and "-" instead of mid-word, so a
 * long address fits a narrow column without breaking "example.com" into "exampl e.com".
 */
export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.-])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
