import { describe, expect, it } from "vitest";
import { Evidence } from "../../src/research/engine/evidence";
import { ClaimChecker } from "../../src/research/engine/write/claims/claim-check";
import { findQuote, normalizeForMatch } from "../../src/research/engine/write/claims/quote-span";
import { statedNumbers } from "../../src/research/engine/write/claims/numbers";

/** The exact checks of a model's claims (issue 40): quotes as spans of their sources, names and numbers in the quotes. */
function checker(pages: { title: string; text: string }[]) {
  const evidence = new Evidence();
  const docs = pages.map((page, index) => evidence.add({ url: `https://example.org/${index}`, ...page }, "example.org", 1, []));
  return new ClaimChecker(docs);
}

const BUCK_TICK = { title: "Buck-Tick", text: "Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983. The band has released many albums." };
const SPEECH = {
  title: "Franklin D Roosevelt: State of the Union address, 1935",
  text: "The time has come for action by the national Government. The Federal Government must and shall quit this business of relief. Presidents before me spoke of it.",
};

describe("quote spans", () => {
  it("finds a copy that differs only by whitespace, quote marks, dashes, accents and case, on word boundaries", () => {
    const source = normalizeForMatch("He said “the  band’s sound” was — in Zürich — new.");
    const found = findQuote(source, '"The band\'s sound" was - in Zurich');
    // The span starts after the opening quote mark the fragment was trimmed of, and is the source's own text.
    expect(found).toEqual({ ok: true, spans: [{ start: 9, end: 43 }] });
    expect("He said “the  band’s sound” was — in Zürich — new.".slice(9, 43)).toBe("the  band’s sound” was — in Zürich");
    expect(findQuote(normalizeForMatch("a restart of the band"), "art of the band")).toEqual({ ok: false, problem: "not_found" });
    expect(findQuote(source, "in Zurich")).toEqual({ ok: false, problem: "too_short" });
  });

  it("reads numbers by value", () => {
    expect(statedNumbers("six members, $72,641, 1.5 million, twenty-one, the 1930s").map((number) => number.value)).toEqual([72641, 1500000, 1930, 6, 21]);
  });
});

describe("claims", () => {
  it("keeps a paraphrase whose names and numbers are in its quote; a demonym holds its country", () => {
    const check = checker([BUCK_TICK]).check("The band Buck-Tick was formed in Fujioka, Gunma, Japan, in 1983.", [
      { source: 1, quote: "Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983" },
    ]);
    expect(check.ok).toBe(true);
  });

  it("refuses a number or a name its quotes lack, and says which", () => {
    const check = checker([BUCK_TICK]).check("Buck-Tick was formed in Tokyo in 1985.", [
      { source: 1, quote: "Buck-Tick is a Japanese rock band, formed in Fujioka, Gunma in 1983" },
    ]);
    expect(check).toMatchObject({ ok: false, kind: "number_not_in_quotes", reason: expect.stringMatching(/^1985, tokyo are in none of its quotes/) });
  });

  it("counts the source's title for names and dates: a speech's year, a page's subject", () => {
    const speech = checker([SPEECH]);
    expect(
      speech.check("Franklin D. Roosevelt said in 1935 that the Federal Government must quit relief.", [
        { source: 1, quote: "The Federal Government must and shall quit this business of relief" },
      ]).ok,
    ).toBe(true);
  });

  it("takes a name as people write it where the title writes it in full: Bill for William J Clinton, FDR; never another name", () => {
    const clinton = checker([
      { title: "William J Clinton: State of the Union address, 1998", text: "We have the smallest Government in 35 years, but a more progressive one." },
    ]);
    const quotes = [{ source: 1, quote: "We have the smallest Government in 35 years, but a more progressive one" }];
    expect(clinton.check("By 1998 Bill Clinton described the government as the smallest in 35 years.", quotes).ok).toBe(true);
    expect(clinton.check("By 1998 Bill Gates described the government as the smallest in 35 years.", quotes).ok).toBe(false);
    const roosevelt = checker([SPEECH]);
    expect(
      roosevelt.check("In 1935 FDR said the Federal Government must quit relief.", [
        { source: 1, quote: "The Federal Government must and shall quit this business of relief" },
      ]).ok,
    ).toBe(true);
  });

  it("takes a common word a speech capitalises for no name at a sentence's start", () => {
    const speech = checker([SPEECH]);
    // "Nineteenth-century" is a period (an ordinal in words is no figure), and "presidents" is in no quote: a claim that
    // opens with common words is held only to its names and figures.
    const check = speech.check("Nineteenth-century presidents were not quoted; the national Government had to act.", [
      { source: 1, quote: "The time has come for action by the national Government" },
    ]);
    expect(check.ok).toBe(true);
  });

  it("a yes or no names the question's subjects in its quotes or in the claims that state each side", () => {
    const pages = [
      { title: "A Hopeless Case", text: "A Hopeless Case is a 1939 German comedy film directed by Erich Engel." },
      { title: "Erich Engel", text: "Erich Engel was a German film and theatre director." },
    ];
    const check = checker(pages);
    const names = ["hopeless", "case"];
    const director = [{ source: 2, quote: "Erich Engel was a German film and theatre director" }];
    expect(check.checkAnswer("no", director, names)).toMatchObject({ ok: false, kind: "name_not_in_quotes" });
    const film = check.check("A Hopeless Case was directed by Erich Engel.", [
      { source: 1, quote: "A Hopeless Case is a 1939 German comedy film directed by Erich Engel" },
    ]);
    expect(film.ok).toBe(true);
    expect(check.checkAnswer("no", director, names, film.ok ? film.passages : []).ok).toBe(true);
  });
});

describe("periods and choices", () => {
  it("a century holds when a year of it is in the quotes or their titles", () => {
    const tariffs = checker([
      { title: "John Quincy Adams: State of the Union address, 1828", text: "The tariff protected domestic manufactures against foreign legislation." },
    ]);
    const quote = [{ source: 1, quote: "The tariff protected domestic manufactures against foreign legislation" }];
    expect(tariffs.check("In the 19th century, John Quincy Adams defended the tariff.", quote).ok).toBe(true);
    expect(tariffs.check("In the 20th century, John Quincy Adams defended the tariff.", quote)).toMatchObject({ ok: false, kind: "number_not_in_quotes" });
  });

  it("a choice between what the question names stands on the kept claims' quotes", () => {
    const pages = [
      { title: "Tropic Holiday", text: "Tropic Holiday is a 1938 American musical film directed by Theodore Reed." },
      { title: "Theodore Reed", text: "Theodore Reed (June 18, 1887 – February 22, 1959) was an American film director." },
    ];
    const check = checker(pages);
    const names = ["tropic", "holiday", "levy", "company"];
    const died = [{ source: 2, quote: "Theodore Reed (June 18, 1887 – February 22, 1959) was an American film director" }];
    expect(check.checkAnswer("Tropic Holiday", died, names)).toMatchObject({ ok: false });
    const levy = checker([...pages, { title: "Levy and Company", text: "Levy and Company is a 1930 French comedy film directed by André Hugon." }]);
    const claims = [
      levy.check("Tropic Holiday was directed by Theodore Reed.", [
        { source: 1, quote: "Tropic Holiday is a 1938 American musical film directed by Theodore Reed" },
      ]),
      levy.check("Levy and Company was directed by André Hugon.", [
        { source: 3, quote: "Levy and Company is a 1930 French comedy film directed by André Hugon" },
      ]),
    ].flatMap((claim) => (claim.ok ? claim.passages : []));
    expect(levy.checkAnswer("Tropic Holiday", died, names, claims).ok).toBe(true);
  });
});
