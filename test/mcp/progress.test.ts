import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MODES } from "../../src/research/pricing";
import { PageProgress } from "../../src/routes/mcp/progress";
import { apiCaller, corpusLoaded } from "../research/helpers";
import { mcpClient } from "./helpers";

describe("deep_research's progress notifications", () => {
  it("carry a total (the envelope's pages, plus one for the brief) and the pages read, always increasing, ending at the total", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const { client } = await mcpClient(caller.key);
    const progress: Progress[] = [];
    const result = (await client.callTool(
      { name: "deep_research", arguments: { question: "What ended the Nullification Crisis?", mode: "standard" } },
      undefined,
      {
        onprogress: (update) => progress.push(update),
      },
    )) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status: "succeeded" });

    const total = MODES.standard.maxPages + 1;
    expect(progress.length).toBeGreaterThan(3);
    expect(progress.every((update) => update.total === total)).toBe(true);
    const values = progress.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
    expect(progress[0]).toMatchObject({ progress: 0, message: expect.stringMatching(/^Job \S+ accepted/) });
    expect(progress.at(-1)).toMatchObject({ progress: total, message: "Status: succeeded" });
    // Each stage's notification stands at the pages it reports read (within the page).
    const staged = progress.filter((update) => / pages read /.test(update.message ?? ""));
    expect(staged.length).toBeGreaterThan(0);
    for (const update of staged) {
      const pages = Number(/(\d+) pages read/.exec(update.message!)![1]);
      expect(update.progress).toBeGreaterThanOrEqual(Math.min(pages, total - 1));
      expect(update.progress).toBeLessThan(Math.min(pages, total - 1) + 1);
    }
    expect(Math.max(...staged.map((update) => Number(/(\d+) pages read/.exec(update.message!)![1])))).toBeGreaterThan(0);
    await client.close();
  });
});

describe("PageProgress", () => {
  it("moves on by a thousandth for what reads no page, jumps to the pages read, and never passes a page it has not read", () => {
    const meter = new PageProgress(5);
    const stage = (pages: number) => ({ id: 1, event: "progress", data: { stage: "reading", wave: 1, searches: 1, pages, cost_usd: 0 } }) as const;
    const source = { id: 2, event: "source", data: { url: "https://a.example", title: "A", domain: "a.example" } } as const;
    expect(meter.total).toBe(6);
    expect(meter.next()).toBe(0);
    expect(meter.next({ id: 1, event: "status", data: { status: "running" } })).toBe(0.001);
    expect(meter.next(stage(0))).toBe(0.002);
    expect(meter.next(source)).toBe(0.003);
    expect(meter.next(stage(3))).toBe(3);
    expect(meter.next(stage(2))).toBe(3.001);
    expect(meter.next(stage(9))).toBe(5);
    expect(meter.next({ id: 9, event: "status", data: { status: "failed" } })).toBe(6);
  });
});
