import { exports } from "cloudflare:workers";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import OpenAPIBackend from "openapi-backend";

/**
 * The published document is a contract: every response a test receives through `call()` is checked
 * against `/openapi.json` by openapi-backend (routing a request to its operation, then Ajv on the
 * documented schema for the status). A status the operation does not document, a content type it
 * does not declare, or a body that does not satisfy the schema fails the test that received it.
 */

interface Exchange {
  method: string;
  url: URL;
  status: number;
  contentType: string;
  /** The body, read from a clone so the test still owns the original; null for streams. */
  body: Promise<string> | null;
}

const exchanges: Exchange[] = [];
/** Operations (their operationIds) with a response checked since the last `checkRecordedExchanges`. */
export const checkedOperations = new Set<string>();

export function recordExchange(request: Request, response: Response): void {
  const contentType = (response.headers.get("Content-Type") ?? "").split(";")[0]!.trim();
  exchanges.push({
    method: request.method,
    url: new URL(request.url),
    status: response.status,
    contentType,
    body: contentType === "text/event-stream" || response.body === null ? null : response.clone().text(),
  });
}

let backend: Promise<OpenAPIBackend> | undefined;

/** The document as the worker publishes it, loaded once per test file. */
export function publishedApi(origin: string): Promise<OpenAPIBackend> {
  backend ??= (async () => {
    const response = await exports.default.fetch(new Request(`${origin}/openapi.json`));
    const document = (await response.json()) as any;
    // openapi-backend keys its validators by operationId. Every operation has one (the reference
    // test holds that); should one ever lack it, its method and path stand in.
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(item)) operation.operationId ??= `${method.toUpperCase()} ${path}`;
    }
    const api = new OpenAPIBackend({
      definition: document,
      quick: true, // the document itself is validated as OpenAPI 3.1 by test/e2e/foundation.e2e.test.ts
      customizeAjv: () => {
        const ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return api;
  })();
  return backend;
}

/** Every operation of the document, once `publishedApi` has loaded it. */
export let documentedOperations: string[] | undefined;

/** Checks and forgets every exchange recorded so far; returns one line per broken promise. */
export async function checkRecordedExchanges(): Promise<string[]> {
  const pending = exchanges.splice(0);
  if (pending.length === 0) return [];
  const api = await publishedApi(pending[0]!.url.origin);
  documentedOperations ??= api.getOperations().map((operation) => operation.operationId!);
  const problems: string[] = [];
  for (const exchange of pending) {
    const body = exchange.body === null ? "" : await exchange.body;
    const operation = api.router.matchOperation({
      method: exchange.method,
      path: exchange.url.pathname,
      query: exchange.url.search.slice(1),
      headers: {},
    });
    if (!operation) continue; // not an operation of ours (an unknown path's 404, a CORS preflight)
    const where = `${exchange.method} ${exchange.url.pathname} -> ${exchange.status}`;
    const responses: Record<string, any> = operation.responses ?? {};
    const documented = responses[String(exchange.status)] ?? responses[`${String(exchange.status)[0]}XX`] ?? responses.default;
    if (!documented) {
      problems.push(`${where}: status not documented (documented: ${Object.keys(responses).join(", ")}); body ${body.slice(0, 200)}`);
      continue;
    }
    const declared = Object.keys(documented.content ?? {});
    if (body !== "" && !declared.includes(exchange.contentType)) {
      problems.push(`${where}: ${exchange.contentType || "a body"} not declared (declared: ${declared.join(", ") || "no content"})`);
      continue;
    }
    if (exchange.contentType === "application/json" && documented.content["application/json"].schema) {
      const result = api.validateResponse(JSON.parse(body), operation, exchange.status);
      if (!result.valid) {
        const errors = (result.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || "/"} ${e.message}`);
        problems.push(`${where}: body does not match the schema: ${errors.join("; ")}; body ${body.slice(0, 300)}`);
        continue;
      }
    }
    checkedOperations.add(operation.operationId!);
  }
  return problems;
}
