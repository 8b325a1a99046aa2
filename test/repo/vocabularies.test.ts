import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isMetered as cliIsMetered, RESEARCH_MODES as CLI_MODES } from "../../sdk/src/cli/modes";
import { isTerminal as sdkIsTerminal, JOB_STATUSES as SDK_STATUSES } from "../../sdk/src/job-statuses";
import { isTerminal, JOB_STATUSES } from "../../src/db/schema/jobs";
import { LLM_PROVIDER, type ProviderChoice, SEARCH_PROVIDER } from "../../src/env";
import { isMetered, type ModePrice, modePrices, RESEARCH_MODES } from "../../src/research/pricing";
import { isTerminal as webIsTerminal, JOB_STATUSES as WEB_STATUSES } from "../../web/src/job-statuses";

/**
 * The vocabularies that prose and the clients restate, held to their one source (docs/architecture.md,
 * "Registries"): the modes to src/research/pricing/modes.ts, the job statuses to src/db/schema/jobs.ts,
 * the provider names to SEARCH_PROVIDER and LLM_PROVIDER in src/env.ts. The clients' Records are
 * exhaustive by their type (generated from /openapi.json); what they say of each name is held here.
 */
const README = readFileSync("README.md", "utf8");
const ENGINE_DOC = readFileSync("docs/engine.md", "utf8");

/** The rows of the Markdown table whose header row is `header`, each as its trimmed cells. */
function tableRows(markdown: string, header: string): string[][] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(header);
  if (start < 0) throw new Error(`no table headed ${header}`);
  const rows = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split("|")
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

describe("the README's modes", () => {
  it("its mode table is the price list, row for row", () => {
    const row = (mode: ModePrice) => [
      `\`${mode.mode}\``,
      mode.credits === null ? "metered, up to `max_credits` (required)" : `${mode.credits} credits`,
      `${mode.max_wallclock_secs} s`,
      String(mode.max_sources),
      String(mode.max_searches),
      String(mode.max_waves),
      mode.critic ? "yes" : "no",
    ];
    expect(tableRows(README, "| Mode | Price | Wall clock | Sources | Searches | Waves | Critic |")).toEqual(modePrices().map(row));
  });

  it("the table of what a job costs with a model names every mode at its price", () => {
    const rows = tableRows(README, README.split("\n").find((line) => line.startsWith("| Mode | Price (credits) |"))!);
    expect(rows.map(([mode, price]) => [mode, price])).toEqual(
      modePrices().map((mode) => [mode.mode, mode.credits === null ? "metered" : String(mode.credits)]),
    );
  });
});

describe("the provider names in the docs", () => {
  /** A choice's Values cell: every name in the table's order, the default marked. */
  const values = (choice: ProviderChoice) =>
    Object.keys(choice.requires)
      .map((name) => `\`${name}\`${name === choice.default ? " (default)" : ""}`)
      .join(", ");
  const valuesOf = (markdown: string, variable: string) =>
    tableRows(markdown, "| Variable | Values | Notes |").find(([name]) => name === `\`${variable}\``)?.[1];

  for (const [doc, markdown] of [
    ["README.md", README],
    ["docs/engine.md", ENGINE_DOC],
  ] as const) {
    it(`${doc} lists the search providers and the models the configuration accepts`, () => {
      expect(valuesOf(markdown, "SEARCH_PROVIDER")).toBe(values(SEARCH_PROVIDER));
      expect(valuesOf(markdown, "LLM_PROVIDER")).toBe(values(LLM_PROVIDER));
    });
  }
});

describe("the clients' tables of the service's vocabularies", () => {
  it("the SDK has every job status, in the service's order, terminal where the service's is", () => {
    expect(SDK_STATUSES).toEqual(JOB_STATUSES);
    expect(SDK_STATUSES.map(sdkIsTerminal)).toEqual(JOB_STATUSES.map(isTerminal));
  });

  it("the dashboard has every job status, in the service's order, terminal where the service's is", () => {
    expect(WEB_STATUSES).toEqual(JOB_STATUSES);
    expect(WEB_STATUSES.map(webIsTerminal)).toEqual(JOB_STATUSES.map(isTerminal));
  });

  it("the CLI has every mode, cheapest first, metered where the service's is", () => {
    expect(CLI_MODES).toEqual(RESEARCH_MODES);
    expect(CLI_MODES.map(cliIsMetered)).toEqual(RESEARCH_MODES.map(isMetered));
  });
});
