import { describe, expect, it } from "vitest";
import { DEMONYM_COUNTRY } from "../../src/research/engine/language";
import { answerOutcome, evidenceOf } from "./helpers";

/** "Did A and B have the same nationality?" decided on the demonyms of each one's lead (answer/direct.ts). */
describe("nationality from a lead's demonym", () => {
  const direct = (question: string, pages: [string, string][]) =>
    (answerOutcome(question, evidenceOf(pages)).candidates ?? []).find((candidate) => candidate.path === "direct")?.text ?? null;

  it("knows the demonyms of countries beyond the common few", () => {
    expect(DEMONYM_COUNTRY.slovene).toBe("slovenia");
    expect(DEMONYM_COUNTRY["cape verdean"]).toBe("cape verde");
    expect(DEMONYM_COUNTRY.latvian).toBe("latvia");
  });

  it("says no for a Slovene and a Finn, written as 2WikiMultihopQA writes its leads", () => {
    expect(
      direct("Did Hannu Aravi and Andrej E. Skuba have the same nationality?", [
        ["Andrej E. Skuba", "Andrej Ermenc Skuba( born 28 December 1967) is a Slovene writer, playwright, and translator."],
        ["Hannu Aravi", "Hannu Aravi( born 26 March 1953) is a Finnish ice hockey player and coach."],
      ]),
    ).toBe("no");
    expect(
      direct("Are Olivier Lacoste-Lebel and Kalvis Eisenberg from the same country?", [
        ["Olivier Lacoste-Lebel", "Olivier Lacoste-Lebel( born September 28, 1990) is a retired Canadian soccer defender."],
        ["Kalvis Eisenberg", "Kalvis Eisenberg( born 7 March 1983, in Riga) is a Latvian cyclist."],
      ]),
    ).toBe("no");
  });

  it("reads a country's name as a nationality only where the sentence places its subject there, not as a first name", () => {
    // Chad Brook is American, not from Chad.
    expect(
      direct("Are Chad Brook and Mahamat Saleh from the same country?", [
        ["Chad Brook", "Chad Brook (born 1970) is an American drummer."],
        ["Mahamat Saleh", "Mahamat Saleh (born 1971) is a Chadian footballer."],
      ]),
    ).toBe("no");
    expect(
      direct("Are Ama Boateng and Kofi Mensah from the same country?", [
        ["Ama Boateng", "Ama Boateng (born 1980) is a singer from Ghana."],
        ["Kofi Mensah", "Kofi Mensah (born 1975) is a Ghanaian footballer."],
      ]),
    ).toBe("yes");
  });
});

/** "Who was born first, A or B?" decided on birth years, where a lost dash glued a birth year to the death date. */
describe("birth years of a pick", () => {
  it("reads the birth year, not the death year, of a life whose dash was lost", () => {
    const outcome = answerOutcome(
      "Who was born first, Pierre Voss or Jean Marle?",
      evidenceOf([
        ["Pierre Voss", "Pierre Voss( 21 February 188524 July 1957) was a French stage actor."],
        ["Jean Marle", "Jean Marle( born 3 March 1920) is a French painter."],
      ]),
    );
    expect((outcome.candidates ?? []).find((candidate) => candidate.path === "direct")?.text).toBe("Pierre Voss");
  });

  it("picks between options asked after a question mark", () => {
    const outcome = answerOutcome(
      "Who was born first? Pierre Voss or Jean Marle?",
      evidenceOf([
        ["Pierre Voss", "Pierre Voss (21 February 1885 – 24 July 1957) was a French stage actor."],
        ["Jean Marle", "Jean Marle (born 3 March 1920) is a French painter."],
      ]),
    );
    expect((outcome.candidates ?? []).find((candidate) => candidate.path === "comparison")?.text).toBe("Pierre Voss");
  });
});

/** "Are A and B situated in the same province?" when each lead says where in its province the place is. */
describe("a place after a compass word", () => {
  it("reads 'in southeastern Jiangsu province' as Jiangsu, so two cities compare", () => {
    const outcome = answerOutcome(
      "Are Nantong and Jingdezhen situated in the same province?",
      evidenceOf([
        ["Nantong", "Nantong is a prefecture-level city in southeastern Jiangsu province, China."],
        ["Jingdezhen", "Jingdezhen is a prefecture-level city in northeastern Jiangxi province, China."],
      ]),
    );
    expect((outcome.candidates ?? []).find((candidate) => candidate.path === "direct")?.text).toBe("no");
  });
});

/** "Are A and B both located in the same country?" when a page names a US state, not the country. */
describe("the country of a place in a US state", () => {
  it("reads the United States from a state, so two airports compare", () => {
    const outcome = answerOutcome(
      "Are Bolton Airport and Grant County Field both located in the same country?",
      evidenceOf([
        [
          "Bolton Airport",
          "Bolton Airport( Bolton Air Terminal) is a joint civil- military airport three miles south of Boise in Ada County, Idaho, United States.",
        ],
        ["Grant County Field", "Grant County Field( Ogilvie Field) is in Grant County, Oregon, a mile southwest of John Day, Oregon."],
      ]),
    );
    expect((outcome.candidates ?? []).find((candidate) => candidate.path === "comparison")?.text).toBe("yes");
  });
});
