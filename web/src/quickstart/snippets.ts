import type { Schemas } from "../api/client";

/**
 * A research request written out as code a customer can paste: curl, the TypeScript and Python
 * SDKs, the CLI and an MCP client's config. Pure functions of the request, so the onboarding quick start and
 * the playground's "get code" show the same thing, and a test can run what they produce.
 *
 * Every snippet reads the key from DEEP_RESEARCH_API_KEY (the variable the SDK and the CLI read),
 * so a key never lands in source code; when the key is at hand (just created), the shell snippets
 * start by exporting it. Only the MCP config holds the key itself: JSON has no variables.
 */

/** What a snippet asks: the request's fields, without the playground's own `async` and `include_sources`. */
export type SnippetRequest = Omit<Schemas["ResearchRequest"], "async" | "include_sources">;

export interface SnippetTarget {
  /** The service's origin (the dashboard's own: it serves the API too). */
  baseUrl: string;
  /** The key's plaintext when the page has it (only right after creating it); otherwise the reader sets it. */
  apiKey?: string;
}

export const API_KEY_VARIABLE = "DEEP_RESEARCH_API_KEY";
const BASE_URL_VARIABLE = "DEEP_RESEARCH_BASE_URL";

/** A word for a POSIX shell: single-quoted, a single quote written as '\'' (close, escaped quote, reopen). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The line that puts the key in the environment, or a comment saying where to get one. */
function keyLine(target: SnippetTarget): string {
  return target.apiKey ? `export ${API_KEY_VARIABLE}=${shellQuote(target.apiKey)}` : `# export ${API_KEY_VARIABLE}=<your key>   (dashboard → API keys)`;
}

export function curlSnippet(request: SnippetRequest, target: SnippetTarget): string {
  const body = JSON.stringify(request, null, 2);
  return [
    keyLine(target),
    "# 200: the result. 202 (a job over 60 s): its id, to follow at /v1/research/<id>/events",
    `curl -sS ${shellQuote(`${target.baseUrl}/v1/research`)} \\`,
    `  -H "Authorization: Bearer $${API_KEY_VARIABLE}" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join("\n");
}

/** A value as TypeScript source (JSON is valid TypeScript): a list of words on one line, an object indented to sit at `indent`. */
function tsValue(value: unknown, indent: string): string {
  if (Array.isArray(value) && value.every((item) => typeof item !== "object")) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
  return JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);
}

export function sdkSnippet(request: SnippetRequest, target: SnippetTarget): string {
  // The SDK's research() options are the request's fields in camelCase.
  const options: [string, unknown][] = [
    ["mode", request.mode],
    ["maxCredits", request.max_credits],
    ["maxWallclockSecs", request.max_wallclock_secs],
    ["includeDomains", request.include_domains],
    ["excludeDomains", request.exclude_domains],
    ["collections", request.collections],
    ["web", request.web],
    ["responseSchema", request.response_schema],
    ["webhookUrl", request.webhook_url],
  ];
  const lines = options.filter(([, value]) => value !== undefined && value !== null).map(([name, value]) => `  ${name}: ${tsValue(value, "  ")},`);
  const print = request.response_schema ? "console.log(result.typed);" : 'console.log(result.answer?.text ?? "No short answer.", result.brief);';
  return [
    `// npm install deep-research; the key is read from ${API_KEY_VARIABLE} (dashboard → API keys).`,
    'import { DeepResearch } from "deep-research";',
    "",
    `const client = new DeepResearch({ apiKey: process.env.${API_KEY_VARIABLE}!, baseUrl: ${JSON.stringify(target.baseUrl)} });`,
    "",
    `const result = await client.research(${JSON.stringify(request.question)}, {`,
    ...lines,
    "});",
    print,
  ].join("\n");
}

/** A JSON value as a Python literal (None, True, False; a JSON string is a valid Python string): a list of words on one line, the rest indented to sit at `indent`. */
export function pythonValue(value: unknown, indent = ""): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) return `[${value.map((item) => pythonValue(item)).join(", ")}]`;
    return `[\n${value.map((item) => `${inner}${pythonValue(item, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonValue(item, inner)},`).join("\n")}\n${indent}}`;
}

export function pythonSnippet(request: SnippetRequest, target: SnippetTarget): string {
  // The Python SDK's research.run() keyword arguments are the request's fields as they are.
  const options: [string, unknown][] = [
    ["mode", request.mode],
    ["max_credits", request.max_credits],
    ["max_wallclock_secs", request.max_wallclock_secs],
    ["include_domains", request.include_domains],
    ["exclude_domains", request.exclude_domains],
    ["collections", request.collections],
    ["web", request.web],
    ["response_schema", request.response_schema],
    ["webhook_url", request.webhook_url],
  ];
  const lines = options.filter(([, value]) => value !== undefined && value !== null).map(([name, value]) => `    ${name}=${pythonValue(value, "    ")},`);
  const print = request.response_schema
    ? ['print(result["typed"])']
    : ['answer = result["answer"]', 'print(answer["text"] if answer else "No short answer.", result["brief"])'];
  return [
    `# pip install deep-research; the key is read from ${API_KEY_VARIABLE} (dashboard → API keys).`,
    "from deep_research import DeepResearch",
    "",
    `client = DeepResearch(base_url=${JSON.stringify(target.baseUrl)})`,
    "",
    "result = client.research.run(",
    `    ${JSON.stringify(request.question)},`,
    ...lines,
    ")",
    ...print,
  ].join("\n");
}

const CLI_COMMAND_WORDS = new Set(["credits", "jobs", "cancel", "help"]);
const startsLikeACommand = (question: string) => question.startsWith("-") || CLI_COMMAND_WORDS.has(question);

export function cliSnippet(request: SnippetRequest, target: SnippetTarget): string {
  const flags: string[] = [];
  if (request.mode) flags.push("--mode", request.mode);
  if (request.max_credits !== undefined && request.max_credits !== null) flags.push("--max-credits", String(request.max_credits));
  for (const id of request.collections ?? []) flags.push("--collection", id);
  if (request.web) flags.push("--web");
  for (const domain of request.include_domains ?? []) flags.push("--include-domain", shellQuote(domain));
  for (const domain of request.exclude_domains ?? []) flags.push("--exclude-domain", shellQuote(domain));
  if (request.webhook_url) flags.push("--webhook", shellQuote(request.webhook_url));
  if (request.response_schema) flags.push("--schema", "schema.json");
  return [
    keyLine(target),
    `export ${BASE_URL_VARIABLE}=${shellQuote(target.baseUrl)}`,
    // The CLI takes the schema from a file: write it first ('EOF' quoted, so the shell leaves it as it is).
    ...(request.response_schema ? ["cat > schema.json <<'EOF'", JSON.stringify(request.response_schema, null, 2), "EOF"] : []),
    ...(request.max_wallclock_secs ? ["# The CLI has no wall-clock option: the mode's limit applies."] : []),
    // A question the CLI could take for an option or a command word goes after "--", the flags before it.
    (startsLikeACommand(request.question)
      ? ["npx deep-research", ...flags, "--", shellQuote(request.question)]
      : ["npx deep-research", shellQuote(request.question), ...flags]
    ).join(" "),
  ].join("\n");
}

/** An MCP client's JSON config (Cursor's mcp.json and the like): the service's /mcp with the key as a Bearer token. */
export function mcpConfigSnippet(target: SnippetTarget): string {
  const config = { mcpServers: { "deep-research": { url: `${target.baseUrl}/mcp`, headers: { Authorization: `Bearer ${target.apiKey ?? "<your key>"}` } } } };
  return JSON.stringify(config, null, 2);
}
