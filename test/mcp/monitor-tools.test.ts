import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { call, dbFirst, json } from "../helpers";
import { apiCaller } from "../research/helpers";
import { mcpClient, textOf } from "./helpers";

describe("monitor tools", () => {
  it("create_monitor, list_monitors and list_monitor_runs are the REST operations, scoped to the key's account", async () => {
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const created = (await client.callTool({
      name: "create_monitor",
      arguments: { question: "What ended the Nullification Crisis?", mode: "lite", every: "12h" },
    })) as CallToolResult;
    expect(created.isError ?? false).toBe(false);
    const monitor = created.structuredContent as { id: string };
    expect(await json(await call(`/v1/monitors/${monitor.id}`, { token: caller.key }))).toEqual(monitor);
    expect(monitor).toMatchObject({ mode: "lite", schedule: { every: "12h", cron: null }, credits_per_run: 15, status: "active" });
    expect(textOf(created)).toContain(`Monitor ${monitor.id} created: 15 credits a run`);

    const listed = (await client.callTool({ name: "list_monitors", arguments: {} })) as CallToolResult;
    expect(listed.structuredContent).toEqual({ monitors: [monitor] });
    const runs = (await client.callTool({ name: "list_monitor_runs", arguments: { id: monitor.id } })) as CallToolResult;
    expect(runs.structuredContent).toEqual({ runs: [] });

    // Bad input: an error result, nothing written.
    const before = (await dbFirst<{ n: number }>("SELECT count(*) AS n FROM monitors WHERE user_id = ?", caller.id))!.n;
    const refused = (await client.callTool({ name: "create_monitor", arguments: { question: "Q?", every: "10m" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain("schedule.every");
    expect((await dbFirst<{ n: number }>("SELECT count(*) AS n FROM monitors WHERE user_id = ?", caller.id))!.n).toBe(before);

    // Another account's monitor is not found.
    const other = await apiCaller();
    const { client: otherClient } = await mcpClient(other.key);
    const foreign = (await otherClient.callTool({ name: "list_monitor_runs", arguments: { id: monitor.id } })) as CallToolResult;
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/not found/i);
    expect((await otherClient.callTool({ name: "list_monitors", arguments: {} })).structuredContent).toEqual({ monitors: [] });
    await call(`/v1/monitors/${monitor.id}`, { token: caller.key, method: "DELETE" });
  });
});
