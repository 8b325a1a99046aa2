import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { call, json } from "../helpers";
import { apiCaller, balanceOf } from "../research/helpers";
import { mcpClient, textOf } from "./helpers";

const QUESTION = "What ended the Nullification Crisis?";

describe("quote_research", () => {
  it("is POST /v1/research/quote of the request deep_research would submit: nothing run, reserved or charged", async () => {
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const quoted = (await client.callTool({ name: "quote_research", arguments: { question: QUESTION, mode: "pro" } })) as CallToolResult;
    expect(quoted.isError ?? false).toBe(false);
    const rest = await json(await call("/v1/research/quote", { token: caller.key, body: { question: QUESTION, mode: "pro", async: true } }));
    expect(quoted.structuredContent).toEqual(rest);
    expect(quoted.structuredContent).toMatchObject({ mode: "pro", credits_reserved: 200, covered: true, covered_by: "balance", balance_credits: 500 });
    expect(textOf(quoted)).toBe(
      "Quote for a pro job (nothing was run, reserved or charged): 200 credits ($2.0000), a fixed price reserved when submitted.\n" +
        "It runs within 3 waves, 30 searches, 60 pages and 360 s; deep_research waits that long for the result, so a client whose tool calls time out sooner should use start_research, then get_research.\n" +
        "The balance of 500 credits covers it.",
    );
    expect(await balanceOf(caller)).toBe(500);
    expect(await json(await call("/v1/research", { token: caller.key }))).toEqual([]);
    await client.close();
  });

  it("says when the balance does not cover the job (not an error), and refuses what the submit refuses", async () => {
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const short = (await client.callTool({ name: "quote_research", arguments: { question: QUESTION, mode: "max", max_credits: 800 } })) as CallToolResult;
    expect(short.isError ?? false).toBe(false);
    expect(short.structuredContent).toMatchObject({ metered: true, credits_reserved: 800, covered: false, covered_by: null });
    expect(textOf(short)).toMatch(
      /\nNot covered: This max job needs 800 credits; the balance is 500\. deep_research and start_research would answer insufficient_credits\.$/,
    );

    const invalid = (await client.callTool({ name: "quote_research", arguments: { question: QUESTION, mode: "max" } })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toBe("invalid_request: Invalid request: max_credits is required when mode is max.");
    await client.close();
  });
});
