import { describe, expect, it } from "vitest";
import { askedHead, FEATURE_NAMES, restatedLead } from "../../src/research/engine/answer";
import { stem } from "../../src/research/engine/language";
import { analyzeQuestion } from "../../src/research/engine/question";
import { answerOutcome, evidenceOf } from "./helpers";

/** The page a question describes: its lead restates the question, and its title is the answer. */
describe("the page whose lead the question restates", () => {
  it("reads the noun a wh-phrase asks for, and none when it asks an attribute of a name or no noun", () => {
    expect(askedHead("What landlocked country located in Southern Africa is the birth place of the artist Ayla?")).toBe(stem("country"));
    expect(askedHead("What is the name of the pop band founded by one of the stars of Aisa?")).toBe(stem("band"));
    expect(askedHead("Which 1988 Telugu comedy produced by D. P. Varma had music by a woman?")).toBe(stem("comedy"));
    expect(askedHead("Simon & Simon starred which television and movie actor from the US?")).toBe(stem("actor"));
    expect(askedHead("What is the place of birth of the director of film Lorna?")).toBeNull();
    expect(askedHead("Who hosted the 18th Independent Spirit Awards?")).toBeNull();
  });

  const question = "Which Danish heavy metal band from Copenhagen released a compilation album of rare demo tracks?";
  const evidence = evidenceOf([
    ["Mercyful Fate", "Mercyful Fate is a Danish heavy metal band from Copenhagen, formed in 1981. The band split in 1985."],
    ["Volbeat", "Volbeat is a Danish rock band from Copenhagen, formed in 2001."],
    ["Tivoli Gardens", "Tivoli Gardens is an amusement park and pleasure garden in Copenhagen, Denmark."],
  ]);

  it("proposes the page whose lead says most of the question, with how clearly it beat the next", () => {
    const lead = restatedLead(analyzeQuestion(question), evidence)!;
    expect(lead.text).toBe("Mercyful Fate");
    // Mercyful Fate's lead says danish, heavy, metal, copenhagen; Volbeat's danish, copenhagen. A park is no band.
    expect(lead.share).toBeCloseTo(4 / 6, 6);
    // Its lead names the question's own Copenhagen.
    expect(lead.linked).toBe(true);
    const candidate = (answerOutcome(question, evidence).candidates ?? []).find((entry) => entry.path === "lead")!;
    expect(candidate.text).toBe("Mercyful Fate");
    expect(candidate.features[FEATURE_NAMES.indexOf("path_lead")]).toBe(1);
    expect(candidate.features[FEATURE_NAMES.indexOf("lead_linked_said")]).toBeGreaterThan(0);
  });

  it("counts a word of a name the question says only with the whole name, and never proposes a page the question names", () => {
    const bigStone = evidenceOf([
      ["Big Stone Gap (film)", "Big Stone Gap is a 2014 American romantic comedy film directed by Adriana Trigiani."],
      ["Clinton, Minnesota", "Clinton is a city in Big Stone County, Minnesota, United States."],
    ]);
    expect(restatedLead(analyzeQuestion("The director of the romantic comedy Big Stone Gap is based in what New York city?"), bigStone)).toBeNull();
  });

  it("ties a page to an entity the question only describes, once the description reaches it", () => {
    const waterfalls = evidenceOf([
      ["Quell River", "The Quell River is a river in Zambia. It rises in the eastern highlands."],
      ["Zambia", "Zambia is a landlocked country in southern Africa."],
      ["Mist Falls", "Mist Falls is a waterfall on the Zambezi River in Zambia."],
      ["Cascade Falls", "Cascade Falls is a waterfall in the Cascade Range of Oregon."],
    ]);
    const lead = restatedLead(analyzeQuestion("What is the name of the waterfall in the country where the Quell River is found?"), waterfalls)!;
    expect(lead.text).toBe("Mist Falls");
    expect(lead.linked).toBe(true);
  });
});
