import { describe, expect, it } from "vitest";
import { FEATURE_NAMES } from "../../src/research/engine/answer";
import { Evidence } from "../../src/research/engine/evidence";
import { answerOutcome } from "./helpers";

/** The general path proposes its best span and the runner-up; the calibrated model chooses. */
describe("the general path's runner-up", () => {
  const question = "In which city are the headquarters of the Marrow Lane Company?";
  const evidence = new Evidence();
  evidence.add(
    {
      url: "https://en.wikipedia.org/wiki/Marrow_Lane_Company",
      title: "Marrow Lane Company",
      text: "The Marrow Lane Company, a furniture maker founded in Leeds by two brothers in 1921 and sold in 1980, has its headquarters in York.",
    },
    "en.wikipedia.org",
    1,
    [question],
  );
  const outcome = answerOutcome(question, evidence);
  const general = (outcome.candidates ?? []).filter((candidate) => candidate.path === "general");
  const share = (features: number[]) => features[FEATURE_NAMES.indexOf("share")]!;
  const near = (features: number[]) => features[FEATURE_NAMES.indexOf("near")]!;

  it("proposes both spans, each with its share of the two scores", () => {
    expect(general.map((candidate) => candidate.text)).toEqual(["York", "Leeds"]);
    const [best, second] = general;
    expect(share(best!.features)).toBeGreaterThan(0.5);
    expect(share(best!.features) + share(second!.features)).toBeCloseTo(1, 6);
    // "headquarters" stands next to York, not to Leeds.
    expect(near(best!.features)).toBe(1);
    expect(near(second!.features)).toBe(0);
  });

  it("scores each, so the runner-up is stated only if the model finds it likelier", () => {
    const [best, second] = general;
    expect(best!.probability).toBeGreaterThan(second!.probability);
    expect(outcome.answer?.text ?? null).not.toBe("Leeds");
  });
});

/** A label before a gloss ("Hangul:") is no name the question asks for. */
describe("the general path's spans", () => {
  it("skips a label in parentheses and proposes the maker a question asks for", () => {
    const question = "Spring Tide is the debut album of a South Korean boy group that was formed by who?";
    const evidence = new Evidence();
    for (const [title, text] of [
      ["Spring Tide", "Spring Tide is the debut album of South Korean group BRIGHTLINE. It was released in 2014 by the group's label, Orchid Entertainment."],
      ["Brightline (band)", "Brightline (Hangul: 브라이트), often stylized as BRIGHTLINE, is a South Korean boy group formed in 2013 by Orchid Entertainment."],
    ])
      evidence.add({ url: `https://en.wikipedia.org/wiki/${encodeURIComponent(title!)}`, title: title!, text: text! }, "en.wikipedia.org", 1, [question]);
    const general = (answerOutcome(question, evidence).candidates ?? []).filter((candidate) => candidate.path === "general").map((candidate) => candidate.text);
    expect(general).toContain("Orchid Entertainment");
    expect(general).not.toContain("Hangul");
  });
});
