import { afterEach, describe, expect, it, vi } from "vitest";
import { createChatModel } from "../../src/research/providers";
import { RETIREMENTS, retirementWarning } from "../../src/research/providers/llm/retirements";

/** Issue 41, item 10: a configured model on the providers' retirement lists is said when it is made, once per isolate. */
describe("models on the retirement list", () => {
  afterEach(() => vi.restoreAllMocks());

  it("says a retired model fails and a retiring one's date, with where the provider says so", () => {
    expect(retirementWarning("anthropic", "claude-3-5-haiku-latest", "2026-11-27")).toBe(
      "LLM_MODEL claude-3-5-haiku-latest (anthropic) was retired on 2026-02-19: its calls fail; choose a current model (https://platform.claude.com/docs/en/about-claude/model-deprecations).",
    );
    expect(retirementWarning("openai", "gpt-4o-mini", "2026-11-27")).toMatch(/^LLM_MODEL gpt-4o-mini \(openai\) retires on 2027-01-14;/);
    expect(retirementWarning("anthropic", "claude-haiku-5-5", "2026-11-27")).toBeNull();
    for (const entry of RETIREMENTS) expect(entry.source).toMatch(/^https:\/\//);
  });

  it("a deployment configured with a retired model is warned once when its model is made, not at every job", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const config = { LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "k", LLM_MODEL: "claude-3-5-haiku-20241022" };
    expect(createChatModel(config)).not.toBeNull();
    expect(createChatModel(config)).not.toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/claude-3-5-haiku-20241022 \(anthropic\) was retired on 2026-02-19/);
    createChatModel({ LLM_PROVIDER: "anthropic", ANTHROPIC_API_KEY: "k" });
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
