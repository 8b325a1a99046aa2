import { describe, expect, it } from "vitest";
import { expectLedgerConsistent, json } from "../helpers";
import { apiCaller, balanceOf, docsLoaded, research, waitForTerminal } from "./helpers";

/**
 * The short answer through the service: what POST /v1/research returns in `answer`, and what the
 * brief says around it, on documents of the shapes that used to fail (a film and its director's
 * page; speeches that share one word with the question and nothing else).
 */
const DOMAIN = "short-answer.example.org";
const page = (title: string, text: string) => ({ url: `https://${DOMAIN}/${encodeURIComponent(title.replace(/ /g, "_"))}`, title, text, domain: DOMAIN });
const DOCS = [
  page("Shadows Unseen", "Abuso di potere (internationally released as Shadows Unseen) is a 1972 Italian crime film directed by Camillo Bazzoni."),
  page(
    "Camillo Bazzoni",
    "Camillo Bazzoni (born 29 December 1934) is an Italian cinematographer and film director. Born in Salsomaggiore Terme, Bazzoni started as camera operator in 1960.",
  ),
  page("Helmia ja sikoja", "Helmia ja sikoja is a 2003 Finnish comedy film directed by Perttu Leppa and starring Laura Birn. Birn was born in Helsinki."),
  page("Lyndon B Johnson: State of the Union address, 1966", "Tonight the cup of peril is full in Vietnam. We will stay until aggression has stopped."),
  page("Harry S Truman: State of the Union address, 1947", "The world has won a great victory over tyranny. Our task now is to win the peace."),
];

async function ask(question: string, mode = "standard") {
  await docsLoaded(DOCS);
  const caller = await apiCaller();
  const before = await balanceOf(caller);
  const response = await research(caller, { question, mode, include_domains: [DOMAIN], async: true });
  expect(response.status).toBe(202);
  const done = await waitForTerminal(caller, (await json(response)).id);
  expect(done.status).toBe("succeeded");
  return { done, caller, before };
}

describe("the short answer of a job", () => {
  it("is high when every hop and the asked fact were read in a sentence, with its estimated probability, and cites both pages", async () => {
    const { done } = await ask("Where was the director of film Shadows Unseen born?");
    expect(done.answer).toEqual({ text: "Salsomaggiore Terme", confidence: "high", probability: expect.any(Number), citations: expect.any(Array) });
    expect(done.answer.probability).toBeGreaterThanOrEqual(0.95);
    const cited = done.answer.citations.map((index: number) => done.sources[index].title).sort();
    expect(cited).toEqual(["Camillo Bazzoni", "Shadows Unseen"]);
    expect(done.brief.split("\n")[0]).toMatch(/^The director of film Shadows Unseen is Camillo Bazzoni, who was born in Salsomaggiore Terme \[\d\]\[\d\]\./);
  });

  it("is null when the evidence does not answer, and the brief says what was found and what is missing", async () => {
    // The director's own page was never read; "Birn was born in Helsinki" is about an actress.
    const { done } = await ask("Where was the director of film Helmia Ja Sikoja born?");
    expect(done.answer).toBeNull();
    const opening = done.brief.split("\n\n")[0];
    expect(opening).not.toMatch(/Helsinki/);
    expect(opening).toMatch(/^The director of film Helmia Ja Sikoja is Perttu Leppa; no source read states where Perttu Leppa was born/);
  });

  it("is null for a question nothing read addresses: one sentence, no unrelated quote, charged the metered work only", async () => {
    const { done, caller, before } = await ask("Who won the 2022 FIFA World Cup?");
    expect(done.answer).toBeNull();
    expect(done.brief).toBe("None of the sources read addresses this question.");
    expect(done.sources).toEqual([]);
    expect(done.citations).toEqual([]);
    // The mode's price is 60; what was spent (searches and reads) is charged instead.
    expect(done.credits_charged).toBe(Math.min(60, Math.ceil(done.cost_usd * 100 - 1e-9)));
    expect(done.credits_charged).toBeLessThan(60);
    expect(await balanceOf(caller)).toBe(before - done.credits_charged);
    await expectLedgerConsistent(caller.id);
  });
});
