import { describe, expect, it } from "vitest";
import { UsageError } from "../../sdk/src/cli/args";
import { parseMonitorsCommand, runMonitors } from "../../sdk/src/cli/monitors";
import type { DeepResearch } from "../../sdk/src/index";

const usage = (argv: string[]) => {
  try {
    parseMonitorsCommand(argv);
    return "parsed";
  } catch (error) {
    return error instanceof UsageError ? error.message : `unexpected ${String(error)}`;
  }
};

describe("deep-research monitors", () => {
  it("reads each action and create's options", () => {
    expect(parseMonitorsCommand(["list"])).toEqual({ kind: "monitors", action: "list", json: false });
    expect(
      parseMonitorsCommand([
        "create",
        "Who",
        "approved",
        "R21?",
        "--every",
        "1d",
        "--mode",
        "lite",
        "--webhook",
        "https://x.example/h",
        "--collection",
        "c1",
        "--json",
      ]),
    ).toEqual({
      kind: "monitors",
      action: "create",
      json: true,
      body: { question: "Who approved R21?", mode: "lite", schedule: { every: "1d" }, webhook_url: "https://x.example/h", collections: ["c1"] },
    });
    expect(parseMonitorsCommand(["create", "Q?", "--cron", "0 9 * * 1", "--max-credits", "60"])).toMatchObject({
      body: { mode: "standard", schedule: { cron: "0 9 * * 1" }, max_credits_per_run: 60 },
    });
    expect(parseMonitorsCommand(["pause", "m1"])).toEqual({ kind: "monitors", action: "pause", json: false, id: "m1" });
  });

  it("says what is wrong", () => {
    expect(usage([])).toMatch(/takes one of list, create/);
    expect(usage(["create", "Q?"])).toBe("Give one of --every (6h, 2d) or --cron.");
    expect(usage(["create", "Q?", "--every", "1d", "--cron", "0 * * * *"])).toBe("Give one of --every (6h, 2d) or --cron.");
    expect(usage(["create", "--every", "1d"])).toMatch(/Give a question/);
    expect(usage(["create", "Q?", "--every", "1d", "--mode", "huge"])).toMatch(/--mode must be one of/);
    expect(usage(["runs"])).toMatch(/takes one monitor id/);
    expect(usage(["list", "--every", "1d"])).toBe('--every applies to "monitors create" only.');
  });

  it("prints each run's diff in words", async () => {
    const run = {
      id: "r2",
      monitor_id: "m1",
      job_id: "j2",
      trigger: "schedule",
      status: "succeeded",
      credits_charged: 60,
      changed: true,
      created_at: "2026-11-28T09:00:00.000Z",
      finished_at: "2026-11-28T09:01:00.000Z",
      diff: {
        previous_run_id: "r1",
        changed: true,
        sources_added: [{ url: "https://a.example/new", title: "New page" }],
        sources_removed: [],
        answer: { changed: true, previous: "Ghana", current: "Ghana and Kenya" },
        claims_added: ["Kenya approved it in 2026"],
        claims_withdrawn: [],
      },
    };
    const calls: string[] = [];
    const client = {
      monitors: {
        runs: async (id: string) => {
          calls.push(`runs ${id}`);
          return [run];
        },
      },
    } as unknown as DeepResearch;
    let out = "";
    const write = (text: string) => {
      out += text;
      return true;
    };
    const io = { stdout: { write }, stderr: { write: () => true }, interrupted: new AbortController().signal };
    expect(await runMonitors(client, parseMonitorsCommand(["runs", "m1"]), io as never)).toBe(0);
    expect(calls).toEqual(["runs m1"]);
    expect(out).toBe(
      "2026-11-28 09:00:00  succeeded  job j2  60 credits ($0.60)\n" +
        "  + source New page https://a.example/new\n" +
        '  answer: "Ghana" -> "Ghana and Kenya"\n' +
        "  + Kenya approved it in 2026\n",
    );
  });
});
