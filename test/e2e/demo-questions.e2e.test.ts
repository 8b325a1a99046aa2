import { resolve } from "node:path";
import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { newAccount, serverClient } from "./server";

const server = serverClient(inject("server"));

/**
 * Issue 43, item 7: the playground's placeholder, every question the README asks and the
 * dashboard's suggestions (asked in search-source.e2e.test.ts) get a cited answer or overview on
 * the corpus `npm start` seeds, through the API in lite and standard; so do the issue's demo
 * questions (a name as people write it, a year from a document's date, a measure its own time
 * called by its kind). The README's and the placeholder's questions are read from the files, so a
 * question added there is asked here.
 */
const readme = readFileSync(resolve("README.md"), "utf8");
const README_QUESTIONS = [
  ...[...readme.matchAll(/"question"\s*:\s*"([^"]+\?)"/g)].map((match) => match[1]!),
  ...[...readme.matchAll(/deep-research "([^"]+\?)"/g)].map((match) => match[1]!),
];
const playground = readFileSync(resolve("web/src/pages/Playground.tsx"), "utf8");
const PLACEHOLDERS = [...playground.matchAll(/placeholder="([^"]+\?)"/g)].map((match) => match[1]!);
const ISSUE_QUESTIONS = [
  "What did the McKinley Tariff do?",
  "What did Franklin Roosevelt say about the four freedoms?",
  "In which year did Lyndon Johnson declare an unconditional war on poverty?",
];

interface Result {
  status: string;
  brief: string;
  answer: { text: string; citations: number[] } | null;
  sources: { domain: string; title: string }[];
}

describe("the demo's own questions, on a fresh npm start", () => {
  it("reads the README's questions and the playground's placeholder", () => {
    expect(README_QUESTIONS.length).toBeGreaterThanOrEqual(3);
    expect(PLACEHOLDERS.length).toBeGreaterThanOrEqual(1);
  });

  for (const mode of ["lite", "standard"] as const)
    it(`${mode}: each gets a short answer or overview citing the demo corpus`, async () => {
      const { key } = await newAccount(server, `demo-questions-${mode}`);
      const questions = [...new Set([...PLACEHOLDERS, ...README_QUESTIONS, ...ISSUE_QUESTIONS])];
      const answers: Record<string, Result> = {};
      for (const question of questions) {
        const response = await server.post("/v1/research", { question, mode }, key);
        // Lite answers at once; a standard job is accepted (202) and followed to its result.
        expect([200, 202], question).toContain(response.status);
        const result = response.status === 200 ? ((await response.json()) as Result) : await followed((await response.json()) as { status_url: string }, key);
        answers[question] = result;
        expect(result.status, question).toBe("succeeded");
        expect(result.answer, `${question}: no short answer (brief: ${result.brief.slice(0, 200)})`).not.toBeNull();
        expect(result.answer!.citations.length, question).toBeGreaterThan(0);
        expect(result.sources.length, question).toBeGreaterThan(0);
        expect(result.sources.every((found) => found.domain === "sotu.corpus")).toBe(true);
      }
      const fdr = answers["What did Franklin Roosevelt say about the four freedoms?"]!;
      expect(fdr.answer!.text).toMatch(/four essential human freedoms/);
      const johnson = answers["In which year did Lyndon Johnson declare an unconditional war on poverty?"]!;
      expect(johnson.answer!.text).toBe("1964");
      expect(johnson.sources[johnson.answer!.citations[0]!]!.title).toMatch(/Lyndon B Johnson.*1964/);
      expect(johnson.brief).toMatch(/declares unconditional war on poverty/);
      expect(answers["What did the McKinley Tariff do?"]!.answer!.text).toMatch(/tariff/i);
    });
});

/** A job accepted (202), polled to its end. */
async function followed(accepted: { status_url: string }, key: string): Promise<Result> {
  for (let tries = 0; tries < 240; tries++) {
    const polled = (await (await fetch(accepted.status_url, { headers: { Authorization: `Bearer ${key}` } })).json()) as Result;
    if (polled.status !== "queued" && polled.status !== "running") return polled;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${accepted.status_url} did not finish`);
}
