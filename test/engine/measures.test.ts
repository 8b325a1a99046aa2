import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "../../src/research/engine/question";
import { FEATURE_NAMES } from "../../src/research/engine/answer";
import { countedNouns, measureYears, ofAskedYear, statesCount } from "../../src/research/engine/answer/counts";
import { answerOutcome, evidenceOf, featureOf } from "./helpers";

/** A measure is asked as a number, and its unit belongs to the answer. */
describe("measures", () => {
  const evidence = evidenceOf([
    ["Marrowfield", "Marrowfield is a town in Kent, England. Its average snowfall is 6.8 inches a year, and it lies 1,400 metres above sea level."],
  ]);
  const spansFor = (question: string) => ({
    query: analyzeQuestion(question),
    texts: (answerOutcome(question, evidence).candidates ?? []).map((candidate) => candidate.text),
  });

  it("asks a number of 'what is the average snowfall', and answers with the unit", () => {
    const { query, texts } = spansFor("What is the usual average snowfall in Marrowfield?");
    expect(query.expects).toBe("number");
    expect(texts[0]).toBe("6.8 inches");
    // A place is no snowfall.
    expect(texts).not.toContain("Kent");
  });

  it("keeps the unit of an elevation", () => {
    const { query, texts } = spansFor("What is the altitude of Marrowfield above sea level?");
    expect(query.expects).toBe("number");
    expect(texts).toContain("1,400 metres");
  });
});

/** A count is an answer only where its sentence states it as the count asked (answer/counts.ts). */
describe("counts stated as what is asked", () => {
  const evidence = evidenceOf([
    [
      "Harrow Colisee",
      "The Harrow Colisee is a 4,000 capacity (3,677 seated) multi-purpose arena in Lewisford, Maine, that opened in 1958 at 190 Birch Street.",
    ],
    ["Brome County, Kansas", "Brome County is a county in Kansas. The county population was 9,984 in 2010, down 12 percent from 11,378 in 2000."],
    ["Lake Wenda, Florida", "The population was 14,225 at the 2010 census. As of 2014, the population estimated by the U.S. Census Bureau is 15,140."],
  ]);
  const texts = (question: string) => (answerOutcome(question, evidence).candidates ?? []).map((candidate) => candidate.text);

  it("answers 'can seat how many people' with the seated count, not the capacity or an address", () => {
    const found = texts("The Harrow Colisee can seat how many people?");
    expect(found[0]).toBe("3,677 seated");
    expect(found).not.toContain("4,000");
    expect(found).not.toContain("190");
  });

  it("answers a population with the number stated as the population, not another figure beside it", () => {
    const found = texts("Brome County has a population of how many inhabitants?");
    expect(found[0]).toBe("9,984");
    expect(found).not.toContain("11,378");
  });

  it("takes the count of the year asked, when the question dates it", () => {
    expect(texts("What was the 2014 population of Lake Wenda, Florida?")[0]).toBe("15,140");
    expect(texts("What was the 2010 population of Lake Wenda, Florida?")[0]).toBe("14,225");
  });

  it("marks a stated count as a fact stated in a pattern, which its probability rests on", () => {
    const candidate = (answerOutcome("Brome County has a population of how many inhabitants?", evidence).candidates ?? [])[0]!;
    expect(candidate.features[FEATURE_NAMES.indexOf("fact_pattern")]).toBe(1);
  });

  it("reads the counted noun after 'how many' and a measure's own words", () => {
    expect([...countedNouns("How many congressional districts does Kansas have?")]).toEqual(["congressional", "districts"]);
    expect(countedNouns("The arena can seat how many people?")).toEqual(new Set(["people", "seat", "seats", "seated", "seating"]));
    expect(countedNouns("Who founded the arena?").size).toBe(0);
    // An amount is no count of things: "$4.2 million" answers "how much money".
    expect(countedNouns("How much money did the bridge cost?").size).toBe(0);
    expect(statesCount("It aired on tvN at 7:50 (KST) for 20 episodes.", "20", countedNouns("How many episodes were there?"))).toBe(true);
    expect(statesCount("It aired on tvN at 7:50 (KST) for 20 episodes.", "50", countedNouns("How many episodes were there?"))).toBe(false);
  });

  it("reads a count of what the question names, of the year it asks", () => {
    const counts = (pages: [string, string][]) =>
      (answerOutcome("What was the population of Lorvania in 1900?", evidenceOf(pages)).candidates ?? []).map((candidate) => candidate.text);
    const address = "Tovan Reed: Annual address, 1900";
    // A population of something else, on a page about neither Lorvania nor reached from it.
    expect(counts([[address, "On the 15th of November, 1900, the rural service reached forty-four districts, serving a population of 1,801,524."]])).toEqual(
      [],
    );
    // The population of Lorvania, of another year: "in 1900" dates the count asked, five words after "population".
    expect(counts([[address, "When the Congress assembled in November, 1800, the population of Lorvania was 5,308,483."]])).toEqual([]);
    expect(counts([[address, "At the census of 1900, the population of Lorvania was 76,303,387."]])).toEqual(["76,303,387"]);
  });

  it("reads a count in an infobox's row as a page's text flattens it", () => {
    const infobox = "State of Kelso Capital Tope Area Ranked 15th Total 82,278 sq mi Population Ranked 35th Total 2,913,123 (2017 est.) Density 35.1 / sq mi";
    const population = countedNouns("What is the population of Kelso?");
    expect(statesCount(infobox, "2,913,123", population)).toBe(true);
    // The area's total and the density are not the population.
    expect(statesCount(infobox, "82,278", population)).toBe(false);
    expect(statesCount(infobox, "35.1", population)).toBe(false);
  });

  it("dates a count by the year nearest it, in a passage of two years", () => {
    const text = "The population was 14,225 at the 2010 census. As of 2014, the population estimated by the U.S. Census Bureau is 15,140.";
    const question = "What was the 2014 population of Lake Wenda?";
    expect(ofAskedYear(text, measureYears(question), text.indexOf("14,225"))).toBe(false);
    expect(ofAskedYear(text, measureYears(question), text.indexOf("15,140"))).toBe(true);
    // A year the question says of something else does not date the count.
    expect(ofAskedYear(text, measureYears("The 2014 Games host city has how many inhabitants?"), text.indexOf("14,225"))).toBe(true);
  });

  it("never states a count of another page than the entity a description reached", () => {
    const described = evidenceOf([
      ["Dodge Field Airport", "Dodge Field Airport is a public airport three miles east of Dodgeton, a city in Ford County, Kansas."],
      ["Dodgeton, Kansas", "Dodgeton is a city in Ford County, Kansas, United States. The population was 27,340 at the 2010 census."],
      ["Kansas", "Kansas is a U.S. state in the Midwestern United States. Its capital is Topeka."],
    ]);
    const outcome = answerOutcome("What is the population of the state where Dodge Field Airport is located?", described);
    expect(featureOf(outcome, "27,340", "wrong_hop")).toBe(1);
    expect(outcome.answer).toBeNull();
  });

  it("does not read a population ranking as a population", () => {
    expect(analyzeQuestion("What is the population ranking of Jacksonville?").expects).not.toBe("number");
  });
});
