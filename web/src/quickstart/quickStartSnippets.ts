import { curlSnippet, cliSnippet, mcpConfigSnippet, pythonSnippet, type SnippetRequest, type SnippetTarget, sdkSnippet } from "./snippets";
import type { Snippet } from "./SnippetTabs";

/** A first question: the cheapest mode, answered in one call (a lite job ends within 60 s, so curl gets the result, not a job id). */
export const FIRST_REQUEST: SnippetRequest = { question: "How did presidents describe tariffs in the 19th century?", mode: "lite" };

/** A request in the four ways to send it (the playground's "get code"). */
export function requestSnippets(request: SnippetRequest, target: SnippetTarget): Snippet[] {
  return [
    { label: "curl", code: curlSnippet(request, target) },
    { label: "TypeScript (SDK)", code: sdkSnippet(request, target) },
    { label: "Python (SDK)", code: pythonSnippet(request, target) },
    { label: "CLI", code: cliSnippet(request, target) },
  ];
}

/** The onboarding's quick start: the first request four ways, and the MCP config for an agent. */
export function quickStartSnippets(target: SnippetTarget): Snippet[] {
  return [...requestSnippets(FIRST_REQUEST, target), { label: "MCP config", code: mcpConfigSnippet(target) }];
}
