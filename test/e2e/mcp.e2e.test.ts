import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { newAccount, serverClient } from "./server";

/** The MCP endpoint driven by the official client over real HTTP, against `npm start`. */

const server = serverClient(inject("server"));
const QUESTION = "How did presidents describe tariffs in the 19th century?";
const clients: Client[] = [];

/** A new account of its own and its API key (each test's caller). */
const mcpAccount = () => newAccount(server, "mcp-e2e");
type Account = Awaited<ReturnType<typeof mcpAccount>>;

function transportFor(key: string | null): StreamableHTTPClientTransport {
  const headers: Record<string, string> = key ? { Authorization: `Bearer ${key}` } : {};
  return new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers } });
}

async function connect(account: Account): Promise<Client> {
  const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
  await client.connect(transportFor(account.key));
  clients.push(client);
  return client;
}

async function rest(path: string, account: Account) {
  const response = await fetch(server.baseUrl + path, { headers: { Authorization: `Bearer ${account.key}` } });
  return { status: response.status, body: (await response.json()) as any };
}

const credits = async (account: Account) => (await rest("/v1/credits", account)).body.credits as number;
const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
const call = (client: Client, name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

let alice: Account;
beforeAll(async () => {
  alice = await mcpAccount();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

describe("the MCP endpoint over HTTP with the official client", () => {
  it("initializes: server name and version, tools capability, a session id", async () => {
    const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
    const transport = transportFor(alice.key);
    await client.connect(transport);
    clients.push(client);
    expect(client.getServerVersion()).toEqual({ name: "deep-research", version: "0.1.0" });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/deep_research/);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("lists the eleven tools with their required inputs, described fields and output schemas", async () => {
    const client = await connect(alice);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual([
      "cancel_research",
      "create_monitor",
      "deep_research",
      "get_credits",
      "get_research",
      "list_monitor_runs",
      "list_monitors",
      "list_research",
      "plan_research",
      "quote_research",
      "start_research",
    ]);
    expect(byName.deep_research!.inputSchema.required).toEqual(["question"]);
    // start_research takes deep_research's arguments; quote_research and plan_research the same but the idempotency key and the plan to run.
    expect(byName.start_research!.inputSchema).toEqual(byName.deep_research!.inputSchema);
    const {
      idempotency_key: _key,
      plan_id: _plan,
      queries: _queries,
      sub_questions: _subs,
      ...quoted
    } = byName.deep_research!.inputSchema.properties as Record<string, unknown>;
    expect(byName.quote_research!.inputSchema.properties).toEqual(quoted);
    expect(byName.plan_research!.inputSchema.properties).toEqual(quoted);
    expect(byName.get_research!.inputSchema.required).toEqual(["id"]);
    expect(byName.cancel_research!.inputSchema.required).toEqual(["id"]);
    expect(byName.list_research!.inputSchema.required ?? []).toEqual([]);
    const deep = byName.deep_research!.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>;
    expect(Object.keys(deep).sort()).toEqual(
      [
        "collections",
        "exclude_domains",
        "idempotency_key",
        "include_domains",
        "max_credits",
        "mode",
        "plan_id",
        "previous_job_id",
        "queries",
        "question",
        "response_schema",
        "sub_questions",
        "web",
      ].sort(),
    );
    expect(deep.mode!.enum).toEqual(["lite", "standard", "pro", "max"]);
    expect(deep.mode!.description).toMatch(/lite \(15 credits/);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      for (const [field, schema] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>)) {
        expect(schema.description, `${tool.name}.${field}`).toBeTruthy();
      }
      expect(tool.outputSchema, tool.name).toBeDefined();
    }
    expect((byName.deep_research!.outputSchema!.properties as Record<string, unknown>).brief).toBeDefined();
  });

  it("deep_research reports progress while the job runs, returns the cited brief with its sources, and charges the mode's price", async () => {
    const account = await mcpAccount();
    const client = await connect(account);
    const before = await credits(account);
    const progress: Progress[] = [];
    const result = (await client.callTool({ name: "deep_research", arguments: { question: QUESTION, mode: "lite" } }, undefined, {
      onprogress: (update) => progress.push(update),
    })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    const job = result.structuredContent as any;
    expect(job).toMatchObject({ status: "succeeded", question: QUESTION, credits_charged: 15 });
    expect(job.sources.length).toBeGreaterThan(0);
    expect(job.brief).toMatch(/\[1\]/);
    const text = textOf(result);
    expect(text).toContain(job.brief);
    expect(text).toContain(`[1] ${job.sources[0].title}`);
    expect(text).toContain(job.sources[0].url);
    // Progress: the job's id first, then its stages, increasing against a total (lite reads at most 5 pages, plus one for the brief) they end at.
    expect(progress.length).toBeGreaterThan(2);
    expect(progress[0]!.message).toContain(job.id);
    expect(progress.some((update) => /wave \d+ · \d+ searches · \d+ pages read/.test(update.message ?? ""))).toBe(true);
    const values = progress.map((update) => update.progress);
    expect(values.every((value, index) => index === 0 || value > values[index - 1]!)).toBe(true);
    expect(progress.every((update) => update.total === 6)).toBe(true);
    expect(values.at(-1)).toBe(6);
    // The same job as the REST API sees it, paid exactly the lite price.
    expect((await rest(`/v1/research/${job.id}`, account)).body).toEqual(job);
    expect(await credits(account)).toBe(before - 15);
  });

  it("a job the balance cannot cover is an insufficient_credits error result, and nothing is charged or left behind", async () => {
    const account = await mcpAccount();
    const client = await connect(account);
    const before = await credits(account);
    const result = await call(client, "deep_research", { question: QUESTION, mode: "max", max_credits: before + 100 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toBe(`insufficient_credits: This max job needs ${before + 100} credits; the balance is ${before}.`);
    // The REST API answers the same request with the same code and message.
    const restBody = await (await server.post("/v1/research", { question: QUESTION, mode: "max", max_credits: before + 100 }, account.key)).json();
    expect(restBody).toEqual({ error: { code: "insufficient_credits", message: `This max job needs ${before + 100} credits; the balance is ${before}.` } });
    expect(await credits(account)).toBe(before);
    expect((await rest("/v1/research", account)).body).toEqual([]);
  });

  it("refuses to connect without a key or with a bad key: HTTP 401 with the API's error body", async () => {
    for (const key of [null, "dr_live_not_a_real_key"]) {
      const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
      const failure = await client.connect(transportFor(key)).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(StreamableHTTPError);
      expect((failure as StreamableHTTPError).code).toBe(401);
      expect((failure as Error).message).toContain('"code":"unauthorized"');
    }
    const raw = await fetch(`${server.baseUrl}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
    expect(await raw.json()).toEqual({ error: { code: "unauthorized", message: expect.any(String) } });
  });

  it("get_research, list_research, cancel_research and get_credits act on the caller's own jobs only", async () => {
    const client = await connect(alice);
    const done = await call(client, "deep_research", { question: "What did presidents say about the gold standard?", mode: "lite" });
    const job = done.structuredContent as any;
    expect(job.status).toBe("succeeded");

    const got = await call(client, "get_research", { id: job.id });
    expect(got.structuredContent).toEqual(job);
    expect(textOf(got)).toContain(job.brief);

    const listed = await call(client, "list_research", { limit: 5 });
    const jobs = (listed.structuredContent as any).jobs as { id: string; status: string }[];
    expect(jobs[0]).toMatchObject({ id: job.id, status: "succeeded" });
    expect(JSON.parse(textOf(listed))).toEqual(jobs);
    expect(((await call(client, "list_research", { status: "failed" })).structuredContent as any).jobs).toEqual([]);

    const balance = await call(client, "get_credits");
    expect(balance.structuredContent).toEqual((await rest("/v1/credits", alice)).body);

    // A finished job comes back unchanged from cancel, like DELETE /v1/research/{id}, and the text says first that the cancel came too late.
    const cancelled = await call(client, "cancel_research", { id: job.id });
    expect(cancelled.isError ?? false).toBe(false);
    expect(cancelled.structuredContent).toEqual({ ...job, cancel_outcome: "already_finished", cancel_message: expect.any(String) });
    expect(textOf(cancelled)).toMatch(/^The job had already succeeded when the cancel arrived: it was charged \d+ credits/);

    // Another account sees none of it: the id is not found, exactly as over REST.
    const bob = await connect(await mcpAccount());
    for (const name of ["get_research", "cancel_research"]) {
      const result = await call(bob, name, { id: job.id });
      expect(result.isError, name).toBe(true);
      expect(textOf(result)).toBe("not_found: Research job not found.");
    }
    expect(((await call(bob, "list_research")).structuredContent as any).jobs).toEqual([]);

    // Bad arguments get the REST API's own messages.
    expect(textOf(await call(client, "get_research", { id: "nope" }))).toBe("invalid_request: Invalid request: id: id must be a UUID");
    expect(textOf(await call(client, "list_research", { limit: 101 }))).toBe("invalid_request: Invalid request: limit: limit must be at most 100");
    expect(textOf(await call(client, "deep_research", { question: "  " }))).toBe("invalid_request: Invalid request: question: must not be empty");
    const wrongType = await call(client, "deep_research", { question: 42 });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/Input validation error: .*question/);
  });

  it("an idempotency_key returns the original job instead of paying for another", async () => {
    const account = await mcpAccount();
    const client = await connect(account);
    const args = { question: QUESTION, mode: "lite", idempotency_key: `mcp-e2e-${Date.now()}` };
    const first = (await call(client, "deep_research", args)).structuredContent as any;
    const second = (await call(client, "deep_research", args)).structuredContent as any;
    expect(second).toEqual(first);
    expect(await credits(account)).toBe(500 - 15);
    const reused = await call(client, "deep_research", { ...args, mode: "standard" });
    expect(textOf(reused)).toBe("idempotency_key_reused: This Idempotency-Key was already used with a different request body.");
  });

  it("start_research answers with the job's id at once and get_research follows it; quote_research prices it first", async () => {
    const account = await mcpAccount();
    const client = await connect(account);
    const args = { question: QUESTION, mode: "standard" };
    const quote = (await call(client, "quote_research", args)).structuredContent as any;
    expect(quote).toMatchObject({ mode: "standard", credits_reserved: 60, covered: true, envelope: { max_pages: 20 } });
    expect(await credits(account)).toBe(500);

    const started = await call(client, "start_research", args);
    expect(started.isError ?? false).toBe(false);
    const { id, status } = started.structuredContent as any;
    expect(status).toBe("pending");
    expect(textOf(started)).toContain(`get_research with id ${id}`);
    let job: any;
    for (let attempt = 0; attempt < 300; attempt++) {
      job = (await call(client, "get_research", { id })).structuredContent;
      if (["succeeded", "failed", "cancelled"].includes(job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job).toMatchObject({ id, status: "succeeded", credits_charged: quote.max_charge_credits });
    expect(await credits(account)).toBe(500 - 60);
  });

  it("dropping the connection mid-call cancels the job: charged only for the work done", async () => {
    const account = await mcpAccount();
    const client = new Client({ name: "mcp-e2e", version: "1.0.0" });
    await client.connect(transportFor(account.key));
    let jobId: string | undefined;
    // max runs the longest (four waves); the client hangs up as soon as it learns the job's id.
    const outcome = await client
      .callTool({ name: "deep_research", arguments: { question: QUESTION, mode: "max", max_credits: 300 } }, undefined, {
        onprogress: (update) => {
          jobId ??= /^Job (\S+) accepted/.exec(update.message ?? "")?.[1];
          if (jobId) void client.close();
        },
      })
      .then(
        () => "answered",
        (error: Error) => error.message,
      );
    expect(outcome).toMatch(/Connection closed/);
    let job: any;
    for (let attempt = 0; attempt < 100; attempt++) {
      job = (await rest(`/v1/research/${jobId}`, account)).body;
      if (["succeeded", "failed", "cancelled"].includes(job.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job.status).toBe("cancelled");
    expect(job.credits_charged).toBeLessThan(300);
    expect(await credits(account)).toBe(500 - job.credits_charged);
  });
});
