import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseArgs, UsageError } from "../../scripts/eval/args";
import { modelSettings, ModelSettingsError } from "../../scripts/eval/model";
import { startArgs } from "../../scripts/eval/server";
import { startStandIn } from "../../scripts/eval/stand-in-model";
import { writePrompt } from "../../src/research/engine/prompts";
import { OpenAiCompatibleModel } from "../../src/research/providers/llm/openai";

/** `npm run eval -- <file> --llm openai|anthropic --model <id>` (scripts/eval/model.ts) and its local stand-in model. */

const scratch = mkdtempSync(join(tmpdir(), "eval-model-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("--llm and --model", () => {
  it("parse into the model the service is started with", () => {
    expect(parseArgs(["q.json", "--llm", "openai", "--model", "stand-in"]).llm).toEqual({ provider: "openai", model: "stand-in" });
    expect(parseArgs(["--model=claude-x", "q.json", "--llm=anthropic"]).llm).toEqual({ provider: "anthropic", model: "claude-x" });
    expect(parseArgs(["q.json", "--llm", "openai"]).llm).toEqual({ provider: "openai" });
    expect(parseArgs(["q.json"]).llm).toBeUndefined();
  });

  it.each([
    [["q.json", "--model", "x"], /--model needs --llm/],
    [["q.json", "--llm", "gemini"], /--llm takes openai or anthropic/],
    [["q.json", "--llm", "openai", "--model"], /--model needs a model id/],
    [["q.json", "--llm", "openai", "--base-url", "http://127.0.0.1:8787"], /has its own LLM_PROVIDER/],
    [["q.json", "--llm", "openai", "--in-process"], /not --in-process/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseArgs(argv)).toThrow(UsageError);
    expect(() => parseArgs(argv)).toThrow(message);
  });

  it("takes the base URL and the key from the environment; the key goes only to an owner-only env file, never on the command line or in the description", () => {
    const key = "sk-test-0123456789abcdef";
    const settings = modelSettings(
      { provider: "openai", model: "gpt-x" },
      { OPENAI_BASE_URL: "http://127.0.0.1:9999/v1", OPENAI_API_KEY: key, LLM_CONTEXT_TOKENS: "8192", LLM_TIMEOUT_MS: "300000" },
    );
    expect(settings.vars).toEqual({
      LLM_PROVIDER: "openai",
      LLM_MODEL: "gpt-x",
      OPENAI_BASE_URL: "http://127.0.0.1:9999/v1",
      LLM_CONTEXT_TOKENS: "8192",
      LLM_TIMEOUT_MS: "300000",
    });
    expect(settings.secrets).toEqual({ OPENAI_API_KEY: key });
    expect(settings.description).not.toContain(key);
    expect(settings.description).toContain("OPENAI_API_KEY");

    const args = startArgs(8788, scratch, { ADMIN_EMAILS: "a@example.com", ...settings.vars }, settings.secrets);
    expect(args.join(" ")).not.toContain(key);
    expect(args).toEqual(
      expect.arrayContaining(["--var", "LLM_PROVIDER:openai", "--var", "LLM_MODEL:gpt-x", "--var", "OPENAI_BASE_URL:http://127.0.0.1:9999/v1"]),
    );
    const file = args[args.lastIndexOf("--env-file") + 1]!;
    expect(file.startsWith(scratch)).toBe(true);
    expect(readFileSync(file, "utf8")).toBe(`OPENAI_API_KEY="${key}"\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No secret: no env file, wrangler reads .dev.vars as it always does.
    expect(startArgs(8788, scratch, { A: "1" }, {})).not.toContain("--env-file");
  });

  it("needs a key for the hosted APIs, none for a local OpenAI-compatible server", () => {
    expect(() => modelSettings({ provider: "anthropic" }, {})).toThrow(ModelSettingsError);
    expect(() => modelSettings({ provider: "openai" }, {})).toThrow(/OPENAI_API_KEY/);
    expect(modelSettings({ provider: "openai", model: "stand-in" }, { OPENAI_BASE_URL: "http://127.0.0.1:9999/v1" })).toMatchObject({
      secrets: {},
      vars: { LLM_PROVIDER: "openai" },
    });
    expect(modelSettings({ provider: "anthropic" }, { ANTHROPIC_API_KEY: "ant" }).secrets).toEqual({ ANTHROPIC_API_KEY: "ant" });
  });
});

describe("the stand-in model (scripts/eval/stand-in-model.ts)", () => {
  it("answers the brief with sentences of the numbered sources as claims quoting themselves, a JSON call with {}, and reports usage", async () => {
    const { server, baseUrl, stats } = await startStandIn();
    try {
      const model = new OpenAiCompatibleModel(baseUrl, "stand-in");
      const { system, user } = writePrompt(
        "Where was Alpha born?",
        ["[1] Alpha (en.wikipedia.org)\nAlpha was born in Oslo. He wrote books.", "[2] Beta (example.org)\nBeta is a film by Alpha."],
        false,
      );
      const brief = await model.complete({ system, messages: [{ role: "user", content: user }], maxTokens: 300, json: true });
      const claim = (source: number, text: string) => ({ text, quotes: [{ source, quote: text }], heading: null, bullet: false });
      expect(JSON.parse(brief.text)).toEqual({ claims: [claim(1, "Alpha was born in Oslo."), claim(2, "Beta is a film by Alpha.")], answer: null });
      expect(brief.inputTokens).toBeGreaterThan(0);
      expect((await model.complete({ system: "Plan.", messages: [{ role: "user", content: "q" }], maxTokens: 50, json: true })).text).toBe("{}");
      expect(stats).toMatchObject({ calls: 2, byKind: { brief: 1, json: 1 } });
    } finally {
      server.close();
    }
  });

  it("--refuse-json-mode answers 400 to response_format, and the provider asks again without it", async () => {
    const { server, baseUrl, stats } = await startStandIn({ refuseJsonMode: true });
    try {
      const model = new OpenAiCompatibleModel(baseUrl, "stand-in");
      expect((await model.complete({ system: "Answer with JSON.", messages: [{ role: "user", content: "q" }], maxTokens: 50, json: true })).text).toBe("{}");
      expect((await model.complete({ system: "Answer with JSON.", messages: [{ role: "user", content: "q" }], maxTokens: 50, json: true })).text).toBe("{}");
      expect(stats).toMatchObject({ calls: 2, refusedJsonMode: 1 });
    } finally {
      server.close();
    }
  });
});
