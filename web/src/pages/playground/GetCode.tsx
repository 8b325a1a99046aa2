import { requestSnippets } from "../../quickstart/quickStartSnippets";
import type { SnippetRequest } from "../../quickstart/snippets";
import { SnippetTabs } from "../../quickstart/SnippetTabs";

/**
 * The request the form is building, as code to take away: curl, the TypeScript and Python SDKs and the CLI,
 * each copyable, following every change to the form. The key is read from the environment.
 */
export function GetCode({ request, problem }: { request: SnippetRequest; problem: string | null }) {
  return (
    <details className="card get-code">
      <summary>Get code</summary>
      <p className="muted">
        This request as code. Each snippet reads your key from <code>DEEP_RESEARCH_API_KEY</code>: set it to a key from the API keys page.
      </p>
      {problem && <p className="muted">{problem} The snippets leave it out until it is.</p>}
      <SnippetTabs label="Get code" snippets={requestSnippets(request, { baseUrl: window.location.origin })} />
    </details>
  );
}
