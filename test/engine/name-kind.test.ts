import { describe, expect, it } from "vitest";
import { askedKind, kindFromLead, kindFromWords, kindOfName } from "../../src/research/engine/answer/name-kind";
import { analyzeQuestion } from "../../src/research/engine/question";
import { evidenceOf } from "./helpers";

/** What kind of thing a name is, and what kind a question asks for (answer/name-kind.ts). */
describe("the kind of a name", () => {
  it("reads what a page's opening sentence says its subject is, by the head of its noun phrase", () => {
    expect(kindFromLead("Park Jin-pyo is a South Korean film director and screenwriter.")).toBe("person");
    expect(kindFromLead("Metallica is an American heavy metal band formed in Los Angeles.")).toBe("organisation");
    expect(kindFromLead("Big Stone Gap is a 2014 American drama romantic comedy film written and directed by Adriana Trigiani.")).toBe("work");
    expect(kindFromLead("Leland is a town in Brunswick County, North Carolina, United States.")).toBe("place");
    expect(kindFromLead("The Forum for Democratic Change (FDC) is a political party in Uganda.")).toBe("organisation");
    // Life dates make a person whatever follows.
    expect(kindFromLead("Camillo Bazzoni (born 29 December 1934) is an Italian cinematographer.")).toBe("person");
    expect(kindFromLead("James Madison (March 16, 1751 – June 28, 1836) was an American statesman.")).toBe("person");
    // A noun no list knows says nothing.
    expect(kindFromLead("Lilu is a demon.")).toBeNull();
    expect(kindFromLead("Androscoggin Bank Colisée is a 4,000 capacity (3,677 seated) multi-purpose arena.")).toBeNull();
  });

  it("reads a name's words only at its ends: an organisation's first or last word, a place's last", () => {
    expect(kindFromWords("Forum for Democratic Change")).toBe("organisation");
    expect(kindFromWords("Uganda People's Congress")).toBe("organisation");
    expect(kindFromWords("Bamberg County")).toBe("place");
    expect(kindFromWords("McDowell County, West Virginia, United States")).toBe("place");
    expect(kindFromWords("Uganda")).toBe("place");
    // A state of the US is a place, unless its name is as often a person's.
    expect(kindFromWords("New Hampshire")).toBe("place");
    expect(kindFromWords("Washington")).toBeNull();
    // "Park" is a surname here, and a word inside a name says nothing.
    expect(kindFromWords("Park Jin-pyo")).toBeNull();
    expect(kindFromWords("Androscoggin Bank Colisée")).toBeNull();
  });

  it("prefers the name's own page to its words", () => {
    const evidence = evidenceOf([
      ["Hudson Union", "Hudson Union is an American folk band formed in Albany."],
      ["Tarrow River", "Tarrow River is a river in Kent."],
    ]);
    expect(kindOfName("Hudson Union", evidence)).toBe("organisation");
    expect(kindOfName("Tarrow River", evidence)).toBe("place");
    expect(kindOfName("Mercy Bell", evidence)).toBeNull();
  });

  it("knows the kind a question asks for from its wh-word or its asked noun's head", () => {
    expect(askedKind(analyzeQuestion("Who directed the film Big Stone Gap?"))).toBe("person");
    expect(askedKind(analyzeQuestion("Where was Camillo Bazzoni born?"))).toBe("place");
    expect(askedKind(analyzeQuestion("Which Danish heavy metal band released the album Return of the Vampire?"))).toBe("organisation");
    expect(askedKind(analyzeQuestion("What science fantasy young adult series is told in first person?"))).toBe("work");
    expect(askedKind(analyzeQuestion("In what year was Camillo Bazzoni born?"))).toBeNull();
    expect(askedKind(analyzeQuestion("Are Metallica and Megadeth both American bands?"))).toBeNull();
  });
});
