import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../src/lib/errors";
import { call, json } from "./helpers";

/**
 * /openapi.json is the API reference people learn from (issue 18): every schema property and
 * parameter described, every operation named, summarised, described and exemplified with examples
 * that are valid, the error codes published, the tags in a customer's reading order. Each check
 * collects every offender and names them all, so a failure says what to fix.
 */

type Schema = Record<string, any>;
interface Operation {
  where: string;
  operation: Schema;
}

let doc: Schema;
let operations: Operation[];

beforeAll(async () => {
  const response = await call("/openapi.json");
  expect(response.status).toBe(200);
  doc = await json(response);
  operations = Object.entries<Schema>(doc.paths).flatMap(([path, item]) =>
    Object.entries<Schema>(item).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
  );
});

const nonEmpty = (text: unknown) => typeof text === "string" && text.trim().length > 0;
const refName = (ref: string) => ref.replace("#/components/schemas/", "");
const noProblems = (problems: string[]) => expect(problems, `${problems.length} problem(s):\n${problems.join("\n")}`).toEqual([]);

/** A schema says what it is: its own description, the description of the component it names, or of one of its allOf parts. */
function described(schema: Schema): boolean {
  if (nonEmpty(schema.description)) return true;
  if (schema.$ref) return nonEmpty(doc.components.schemas[refName(schema.$ref)]?.description);
  return (schema.allOf ?? []).some(described);
}

/** Calls `visit` on every schema node under `schema` (properties, items, combinators), with its path. */
function walk(schema: Schema | undefined, path: string, visit: (node: Schema, path: string) => void): void {
  if (!schema || typeof schema !== "object" || schema.$ref) return;
  visit(schema, path);
  for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) walk(property, `${path}.${name}`, visit);
  if (schema.items) walk(schema.items, `${path}[]`, visit);
  if (schema.additionalProperties && typeof schema.additionalProperties === "object") walk(schema.additionalProperties, `${path}{}`, visit);
  for (const key of ["allOf", "anyOf", "oneOf"]) (schema[key] ?? []).forEach((part: Schema, i: number) => walk(part, `${path}<${key}${i}>`, visit));
}

/** Every schema of the document, with where it sits: the components, then each operation's parameters, bodies and responses. */
function everySchema(): { schema: Schema; where: string }[] {
  const schemas = Object.entries<Schema>(doc.components.schemas).map(([name, schema]) => ({ schema, where: `components.${name}` }));
  for (const { where, operation } of operations) {
    for (const parameter of operation.parameters ?? []) schemas.push({ schema: parameter.schema, where: `${where} parameter ${parameter.name}` });
    for (const [type, media] of Object.entries<Schema>(operation.requestBody?.content ?? {}))
      schemas.push({ schema: media.schema, where: `${where} body ${type}` });
    for (const [status, response] of Object.entries<Schema>(operation.responses ?? {})) {
      for (const [type, media] of Object.entries<Schema>(response.content ?? {})) schemas.push({ schema: media.schema, where: `${where} ${status} ${type}` });
    }
  }
  return schemas;
}

/** Ajv over the document's components: validate(schema, value) gives the errors of a value against a schema of the document. */
function documentValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const rewrite = (value: unknown): unknown =>
    JSON.parse(JSON.stringify(value), (key, v) => (key === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "components#/$defs/") : v));
  ajv.addSchema({ $id: "components", $defs: rewrite(doc.components.schemas) as Schema });
  return (schema: Schema, value: unknown): string[] => {
    const validate = ajv.compile(rewrite(schema) as Schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`);
  };
}

describe("the OpenAPI document as a reference", () => {
  it("describes every property of every schema, and every component", () => {
    const problems: string[] = [];
    for (const [name, schema] of Object.entries<Schema>(doc.components.schemas)) {
      if (!nonEmpty(schema.description)) problems.push(`components.${name}: no description`);
    }
    for (const { schema, where } of everySchema()) {
      walk(schema, where, (node, path) => {
        for (const [name, property] of Object.entries<Schema>(node.properties ?? {})) {
          if (!described(property)) problems.push(`${path}.${name}: no description`);
        }
      });
    }
    noProblems(problems);
  });

  it("describes every parameter", () => {
    const problems = operations.flatMap(({ where, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter: Schema) => !nonEmpty(parameter.description))
        .map((parameter: Schema) => `${where}: parameter ${parameter.in} ${parameter.name}`),
    );
    noProblems(problems);
  });

  it("names, summarises and describes every operation, with a unique camelCase operationId", () => {
    const problems: string[] = [];
    const seen = new Map<string, string>();
    for (const { where, operation } of operations) {
      const id = operation.operationId;
      if (!nonEmpty(id)) problems.push(`${where}: no operationId`);
      else if (!/^[a-z][A-Za-z0-9]*$/.test(id)) problems.push(`${where}: operationId ${id} is not camelCase`);
      else if (seen.has(id)) problems.push(`${where}: operationId ${id} is also ${seen.get(id)}'s`);
      else seen.set(id, where);
      if (!nonEmpty(operation.summary)) problems.push(`${where}: no summary`);
      if (!nonEmpty(operation.description)) problems.push(`${where}: no description`);
    }
    noProblems(problems);
    expect(seen.size).toBe(operations.length);
  });

  it("says on every operation which credentials it takes: a scheme, or explicitly none", () => {
    const schemes = Object.keys(doc.components.securitySchemes);
    const problems: string[] = [];
    for (const { where, operation } of operations) {
      if (!Array.isArray(operation.security)) problems.push(`${where}: no security (public operations say security: [])`);
      for (const requirement of operation.security ?? []) {
        for (const scheme of Object.keys(requirement)) if (!schemes.includes(scheme)) problems.push(`${where}: unknown scheme ${scheme}`);
      }
    }
    noProblems(problems);
    const publicOperations = operations.filter(({ operation }) => operation.security?.length === 0).map(({ where }) => where);
    expect(publicOperations).toEqual(expect.arrayContaining(["POST /api/auth/signup", "POST /api/auth/login", "GET /api/billing/plans", "GET /healthz"]));
    expect(publicOperations).not.toContain("POST /v1/research");
  });

  it("gives every JSON request body and every JSON success response an example that is valid against its schema", () => {
    const validate = documentValidator();
    const problems: string[] = [];
    const check = (where: string, media: Schema | undefined) => {
      if (!media) return;
      if (media.example === undefined) {
        problems.push(`${where}: no example`);
        return;
      }
      for (const error of validate(media.schema, media.example)) problems.push(`${where}: example invalid: ${error}`);
    };
    for (const { where, operation } of operations) {
      check(`${where} request body`, operation.requestBody?.content?.["application/json"]);
      for (const [status, response] of Object.entries<Schema>(operation.responses ?? {})) {
        if (status.startsWith("2")) check(`${where} ${status}`, response.content?.["application/json"]);
      }
    }
    noProblems(problems);
  });

  it("keeps every example written on a schema or a parameter valid against it", () => {
    const validate = documentValidator();
    const problems: string[] = [];
    for (const { schema, where } of everySchema()) {
      walk(schema, where, (node, path) => {
        if (node.example === undefined) return;
        const { example, ...rest } = node;
        for (const error of validate(rest, example)) problems.push(`${path}: example invalid: ${error}`);
      });
    }
    for (const { where, operation } of operations) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.example !== undefined)
          for (const error of validate(parameter.schema, parameter.example)) problems.push(`${where} ${parameter.name}: ${error}`);
      }
    }
    noProblems(problems);
  });

  it("documents a success (2xx, or the 3xx of a redirect) on every operation, and a 4xx wherever a request can be wrong", () => {
    const problems: string[] = [];
    for (const { where, operation } of operations) {
      const statuses = Object.keys(operation.responses ?? {});
      if (!statuses.some((status) => /^[23]/.test(status))) problems.push(`${where}: no 2xx or 3xx`);
      // What can be wrong: credentials, parameters or a body. Without any, no 4xx can happen (healthz, the price lists).
      const takesInput = (operation.security ?? []).length > 0 || (operation.parameters ?? []).length > 0 || operation.requestBody !== undefined;
      if (takesInput && !statuses.some((status) => status.startsWith("4"))) problems.push(`${where}: takes input but documents no 4xx`);
    }
    noProblems(problems);
  });

  it("declares its tags, each described, in a customer's reading order, and tags every operation with one of them", () => {
    const names = doc.tags.map((tag: Schema) => tag.name);
    expect(names).toEqual([
      "Research",
      "Collections",
      "Monitors",
      "Credits",
      "API keys",
      "Billing",
      "Dashboard",
      "Playground",
      "Dashboard collections",
      "Accounts",
      "Settings",
      "Support",
      "System",
      "Admin",
    ]);
    const problems: string[] = [];
    for (const tag of doc.tags) if (!nonEmpty(tag.description)) problems.push(`tag ${tag.name}: no description`);
    const used = new Set<string>();
    for (const { where, operation } of operations) {
      if (operation.tags?.length !== 1) problems.push(`${where}: ${operation.tags?.length ?? 0} tags (one expected)`);
      for (const tag of operation.tags ?? []) {
        used.add(tag);
        if (!names.includes(tag)) problems.push(`${where}: tag ${tag} is not declared`);
      }
    }
    for (const name of names) if (!used.has(name)) problems.push(`tag ${name}: no operation`);
    noProblems(problems);
    // The public API reads first: every /v1 operation sits under one of the first four tags.
    const publicTags = operations.filter(({ where }) => where.split(" ")[1]!.startsWith("/v1/")).map(({ operation }) => operation.tags[0]);
    expect(new Set(publicTags)).toEqual(new Set(["Research", "Collections", "Monitors", "Credits"]));
  });

  it("publishes the closed set of error codes, each with its HTTP status and meaning", () => {
    const codeSchema = doc.components.schemas.Error.properties.error.properties.code;
    expect(codeSchema.enum).toEqual(Object.keys(ERROR_STATUS));
    const problems: string[] = [];
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      const row = new RegExp(`\\| \`${code}\` \\| ${status} \\| [^|\\n]*\\w[^|\\n]* \\|`);
      if (!row.test(codeSchema.description)) problems.push(`Error.code description: no row for ${code} (${status})`);
      if (!row.test(doc.info.description)) problems.push(`info.description: no row for ${code} (${status})`);
    }
    noProblems(problems);
  });

  it("opens with a guide: authentication, modes and prices, sync or async, idempotency, paging, errors", () => {
    const guide: string = doc.info.description;
    for (const heading of [
      "## Authentication",
      "## Quick start",
      "## Modes and credits",
      "## Synchronous or asynchronous",
      "## Webhooks",
      "## Idempotency",
      "## Lists",
      "## Rate limits",
      "## Errors",
    ]) {
      expect(guide).toContain(heading);
    }
    // The mode table comes from the price list, so it shows each mode's price (a column per mode, docs.browser.ts).
    expect(guide).toContain("| mode | `lite` | `standard` | `pro` | `max` |");
    expect(guide).toContain("| credits | 15 | 60 | 200 | metered, up to `max_credits` |");
    // The webhooks guide carries the signature checks (run against a real delivery in the e2e tests).
    expect(guide).toContain("timingSafeEqual");
    expect(guide).toContain("hmac.compare_digest");
    // The public operations carry a TypeScript (SDK) and a Python (SDK) sample beside the generated snippets.
    const samples = doc.paths["/v1/research"].post["x-codeSamples"];
    expect(samples).toEqual([
      expect.objectContaining({ lang: "TypeScript", label: "TypeScript (SDK)", source: expect.stringContaining("client.research(") }),
      expect.objectContaining({ lang: "Python", label: "Python (SDK)", source: expect.stringContaining("client.research.run(") }),
    ]);
    expect(doc.info.license?.name).toBeTruthy();
  });
});

describe("the reference pages: the public API apart from the dashboard's and the operator's (issue 29)", () => {
  const part = async (surface: string) => json(await call(`/openapi.json?surface=${surface}`));
  const pathsOf = (document: Schema) => Object.keys(document.paths);

  it("/docs shows what an API key reaches: the /v1 operations, health, the guides and the webhook", async () => {
    const publicPart = await part("public");
    expect(pathsOf(publicPart).length).toBeGreaterThan(5);
    expect(pathsOf(publicPart).filter((path) => !path.startsWith("/v1/") && path !== "/healthz")).toEqual([]);
    expect(pathsOf(publicPart)).toEqual(pathsOf(doc).filter((path) => path.startsWith("/v1/") || path === "/healthz"));
    expect(publicPart.info.description).toBe(doc.info.description);
    expect(Object.keys(publicPart.webhooks)).toEqual([
      "research.started",
      "research.progress",
      "research.completed",
      "research.failed",
      "research.cancelled",
      "webhook.test",
      "monitor.changed",
    ]);
    expect(Object.keys(publicPart.components.securitySchemes)).toEqual(["apiKey"]);
    expect(publicPart.tags.map((tag: Schema) => tag.name)).not.toContain("Admin");
    // Only the schemas its operations reach: no dashboard or operator shape leaks in.
    expect(Object.keys(publicPart.components.schemas)).not.toContain("AdminUserRow");
    expect(Object.keys(publicPart.components.schemas)).toContain("ResearchResult");
  });

  it("/docs/dashboard shows the dashboard's /api and, grouped apart, the operator surface; no /v1 and no webhook", async () => {
    const dashboard = await part("dashboard");
    expect(pathsOf(dashboard)).toEqual(pathsOf(doc).filter((path) => path.startsWith("/api/")));
    expect(pathsOf(dashboard).filter((path) => path.startsWith("/api/admin/")).length).toBeGreaterThan(20);
    expect(dashboard.webhooks).toBeUndefined();
    const groups = dashboard["x-tagGroups"] as { name: string; tags: string[] }[];
    expect(groups.at(-1)).toEqual({ name: "Operator surface (admins only)", tags: ["Admin"] });
    expect(groups[0]!.tags).not.toContain("Admin");
    expect(dashboard.info.description).toContain("[/docs](/docs)");
  });

  it("answers 400 for an unknown surface", async () => {
    const response = await call("/openapi.json?surface=everything");
    expect(response.status).toBe(400);
    expect((await json(response)).error.code).toBe("invalid_request");
  });
});

describe("the webhook delivery, described as the document's webhooks entry (issue 29)", () => {
  it("names each event, its body (a terminal event's is the job's result) and every header a delivery carries, both signatures (issue 30)", () => {
    const bodies = {
      "research.started": "WebhookStartedEvent",
      "research.progress": "WebhookProgressEvent",
      "research.completed": "ResearchResult",
      "research.failed": "ResearchResult",
      "research.cancelled": "ResearchResult",
      "webhook.test": "WebhookTestEvent",
    };
    for (const [event, schema] of Object.entries(bodies)) {
      const delivery = doc.webhooks[event].post;
      expect(delivery.requestBody.content["application/json"].schema.$ref).toBe(`#/components/schemas/${schema}`);
      const headers = delivery.parameters.filter((parameter: Schema) => parameter.in === "header").map((parameter: Schema) => parameter.name);
      expect(headers.sort()).toEqual([
        "X-Service-Delivery",
        "X-Service-Event",
        "X-Service-Signature",
        "X-Service-Timestamp",
        "webhook-id",
        "webhook-signature",
        "webhook-timestamp",
      ]);
      expect(delivery.parameters.every((parameter: Schema) => nonEmpty(parameter.description))).toBe(true);
    }
  });
});

describe("the Test Request console starts with no Idempotency-Key (issue 29)", () => {
  it("gives no example for an Idempotency-Key header, so a second test request is not a replay of the first", () => {
    const prefilled = operations.flatMap(({ where, operation }) =>
      (operation.parameters ?? [])
        .filter((parameter: Schema) => parameter.in === "header" && parameter.name.toLowerCase() === "idempotency-key")
        .filter((parameter: Schema) => parameter.example !== undefined || parameter.schema?.example !== undefined || parameter.examples !== undefined)
        .map(() => where),
    );
    expect(
      operations.some(({ operation }) => (operation.parameters ?? []).some((parameter: Schema) => parameter.name.toLowerCase() === "idempotency-key")),
    ).toBe(true);
    noProblems(prefilled);
  });
});
