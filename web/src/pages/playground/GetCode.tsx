import { requestSnippets } from "../../quickstart/quickStartSnippets";
import type { Schemas } from "../../api/client";
import { SnippetTabs } from "../../quickstart/SnippetTabs";
import { snippetRequest } from "./form";

/**
 * The request the form is building, as code to take away: curl, the TypeScript and Python SDKs and the CLI,
 * each copyable, following every change to the form. The key is read from the environment. `body` is
 * the form's request (requestBodyFor), written out without the playground's own fields.
 */
export function GetCode({ body, problem }: { body: Schemas["ResearchRequest"]; problem: string | null }) {
  return (
    <details className="card get-code">
      <summary>Get code</summary>
      <p className="muted">
        This request as code. Each snippet reads your key from <code>DEEP_RESEARCH_API_KEY</code>: set it to a key from the API keys page.
      </p>
      {problem && <p className="muted">{problem} The snippets leave it out until it is.</p>}
      <SnippetTabs label="Get code" snippets={requestSnippets(snippetRequest(body), { baseUrl: window.location.origin })} />
    </details>
  );
}
