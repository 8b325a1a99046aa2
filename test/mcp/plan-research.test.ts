import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { CorpusSearch } from "../../src/research/providers/search/corpus";
import type { SearchQuery } from "../../src/research/providers/types";
import { dbAll } from "../helpers";
import { apiCaller, balanceOf, corpusLoaded, waitForTerminal } from "../research/helpers";
import { mcpClient, textOf } from "./helpers";

const QUESTION = "What ended the Nullification Crisis?";
const original = CorpusSearch.prototype.search;
afterEach(() => {
  CorpusSearch.prototype.search = original;
});

describe("plan_research", () => {
  it("plans for free, and start_research with plan_id and edited queries runs exactly them", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const planned = (await client.callTool({ name: "plan_research", arguments: { question: QUESTION, mode: "lite" } })) as CallToolResult;
    expect(planned.isError ?? false).toBe(false);
    const plan = planned.structuredContent as { plan_id: string; queries: string[]; max_queries: number };
    expect(plan.max_queries).toBe(2);
    expect(textOf(planned)).toContain(`Plan ${plan.plan_id} for a lite job`);
    expect(await balanceOf(caller)).toBe(500);
    expect(await dbAll("select id from research_jobs where user_id = ?", caller.id)).toEqual([]);

    const received: string[] = [];
    CorpusSearch.prototype.search = function (this: CorpusSearch, query: SearchQuery) {
      received.push(query.query);
      return original.call(this, query);
    };
    const queries = ["Compromise Tariff of 1833"];
    const started = (await client.callTool({
      name: "start_research",
      arguments: { question: QUESTION, mode: "lite", plan_id: plan.plan_id, queries },
    })) as CallToolResult;
    expect(started.isError ?? false).toBe(false);
    await waitForTerminal(caller, (started.structuredContent as { id: string }).id, 60_000);
    expect(received).toEqual(queries);
    await client.close();
  });
});
