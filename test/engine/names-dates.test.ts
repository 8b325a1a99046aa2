import { describe, expect, it } from "vitest";
import { runResearch } from "../../src/research/engine";
import { formalName, namesPerson, personAmong } from "../../src/research/engine/evidence";
import { planBranches } from "../../src/research/engine/plan/queries";
import { analyzeQuestion, saidClaim } from "../../src/research/engine/question";
import { holdsCompound, words } from "../../src/research/engine/language";
import { budgetsForMode } from "../../src/research/pricing";
import { type FakeDoc, memoryProviders } from "./helpers";
import { analyzeEvidence, Evidence } from "../../src/research/engine/evidence";
import { doesTheAct, readAct } from "../../src/research/engine/answer/act-sentences";

/**
 * Issue 43, items 1 and 2: a person is found by the forms people write their name in, a topic by
 * its words with a few between, and "when / in which year did X do Y" is answered from the year of
 * the speech whose sentence does it.
 */
const SOTU = (year: number, president: string) => `corpus://sotu.corpus/${year}-${president.toLowerCase().replace(/ /g, "-")}`;
const speech = (president: string, year: number, text: string): FakeDoc => ({
  url: SOTU(year, president),
  title: `${president}: State of the Union address, ${year}`,
  text,
});

const SPEECHES: FakeDoc[] = [
  speech(
    "Franklin D Roosevelt",
    1941,
    "I address you at a moment unprecedented in the history of the Union. In the future days, which we seek to make secure, we look forward to a world founded upon four essential human freedoms. The first is freedom of speech and expression everywhere in the world.",
  ),
  speech("Franklin D Roosevelt", 1943, "Two years ago I spoke in my Annual Message of four freedoms. The blueprints of victory are drawn."),
  speech("Theodore Roosevelt", 1905, "The freedom of the seas must be kept. Four battleships were laid down this year."),
  speech(
    "Lyndon B Johnson",
    1964,
    "Let this session of Congress be known as the session which did more for civil rights than the last hundred sessions combined. Unfortunately, many Americans live on the outskirts of hope. This administration today, here and now, declares unconditional war on poverty in America.",
  ),
  speech("Lyndon B Johnson", 1966, "I recommend that we prosecute with vigor and determination our war on poverty. The war in Vietnam changed again."),
  speech(
    "Ronald Reagan",
    1988,
    "Some years ago, the Federal Government declared war on poverty, and poverty won. Today the Federal Government has 59 major welfare and income maintenance programs.",
  ),
];

const ask = (question: string, mode: "lite" | "standard" | "pro" = "standard", docs = SPEECHES) =>
  runResearch({ question, mode, budgets: budgetsForMode(mode), include_sources: true }, { providers: memoryProviders(docs) });
const askTyped = (question: string, docs: FakeDoc[], response_schema: Record<string, unknown>) =>
  runResearch(
    { question, mode: "standard", budgets: budgetsForMode("standard"), include_sources: true, response_schema },
    { providers: memoryProviders(docs) },
  );

describe("names as people write them", () => {
  it("matches a speaker's name with or without middle initial, by a middle name written as its initial, by short given names, initials and titles", () => {
    const fdr = "Franklin D Roosevelt";
    for (const form of [
      "Franklin Roosevelt",
      "Franklin D. Roosevelt",
      "Franklin Delano Roosevelt",
      "President Roosevelt",
      "Roosevelt",
      "FDR",
      "Frank Roosevelt",
    ])
      expect(namesPerson(fdr, form), form).toBe(true);
    expect(namesPerson("William J Clinton", "Bill Clinton")).toBe(true);
    expect(namesPerson("Joseph R Biden", "Joe Biden")).toBe(true);
    expect(namesPerson("Donald J Trump", "Don Trump")).toBe(true);
    expect(namesPerson("Herbert Hoover", "Herb Hoover")).toBe(true);
    expect(namesPerson("Lyndon B Johnson", "LBJ")).toBe(true);
    expect(namesPerson("Lyndon B Johnson", "President Lyndon Baines Johnson")).toBe(true);
    // A middle name is not an initial it does not start with, and a first name stays a first name.
    expect(namesPerson(fdr, "Franklin Pierce Roosevelt")).toBe(false);
    expect(namesPerson(fdr, "Theodore Roosevelt")).toBe(false);
    expect(namesPerson("Andrew Johnson", "Lyndon Johnson")).toBe(false);
  });

  it("knows nicknames that carry none of the name, and searches a short form by the name pages are titled by", () => {
    expect(namesPerson("Dwight D Eisenhower", "Ike")).toBe(true);
    expect(namesPerson("Abraham Lincoln", "Honest Abe")).toBe(true);
    expect(namesPerson("Theodore Roosevelt", "Ike")).toBe(false);
    // Two letters are read as initials only when they are known ones: "TR" is Theodore Roosevelt, not Franklin.
    expect(namesPerson("Theodore Roosevelt", "TR")).toBe(true);
    expect(namesPerson("Franklin D Roosevelt", "TR")).toBe(false);
    expect(namesPerson("Ulysses S Grant", "US")).toBe(false);
    expect(formalName("Teddy Roosevelt")).toBe("theodore roosevelt");
    expect(formalName("FDR")).toBe("Franklin D Roosevelt");
    expect(formalName("Ike")).toBe("Dwight D Eisenhower");
    // Written in full already, or no person's name: nothing to search instead.
    expect(formalName("Franklin Roosevelt")).toBeNull();
    expect(formalName("Bill of Rights")).toBeNull();
    // Second, so that lite's two searches have it.
    expect(planBranches(analyzeQuestion("What did Teddy Roosevelt say about trusts?"), 2)).toEqual([
      "What did Teddy Roosevelt say about trusts?",
      "theodore roosevelt trust",
    ]);
    // A question whose other words are all a name ("the Peace Corps") searches the formal name with it.
    expect(planBranches(analyzeQuestion("What did JFK say about the Peace Corps?"), 2)).toEqual([
      "What did JFK say about the Peace Corps?",
      'John F Kennedy "Peace Corps"',
    ]);
  });

  it("weighs a name form no page's speaker is titled with as a name, not a word asked: Bill Clinton's pages are not about a crime bill", () => {
    const evidence = new Evidence();
    const question = "What did Bill Clinton say about the federal government?";
    evidence.add(
      speech(
        "William J Clinton",
        1996,
        "The crime bill of 1994 is critical to community policing. The budget bill I vetoed would have raised taxes. Our Federal Government today is the smallest it has been in 30 years.",
      ),
      "sotu.corpus",
      1,
      [question],
    );
    const analysis = analyzeEvidence(evidence, analyzeQuestion(question));
    expect(analysis.ranked[0]!.best[0]!.passage.text).toBe("Our Federal Government today is the smallest it has been in 30 years.");
    // "bill" counts next to nothing; "clinton", which the title writes, keeps its weight.
    expect(analysis.weights.get("bill")).toBeLessThan(0.1);
    expect(analysis.weights.get("clinton")).toBeGreaterThan(0.5);
  });

  it("a page of the speaker's own words addresses a question naming them by a short form, on a one-word topic", async () => {
    const docs = [
      speech("Theodore Roosevelt", 1901, "Much of the legislation directed at the trusts would have been exceedingly mischievous. The navy must be built up."),
      speech("Franklin D Roosevelt", 1934, "We have undertaken a new order of things. The banks were reopened."),
    ];
    for (const question of ["What did Teddy Roosevelt say about trusts?", "What did Theodore Roosevelt say about trusts?"]) {
      const result = await ask(question, "standard", docs);
      expect(result.answer?.text, question).toMatch(/legislation directed at the trusts/);
      expect(result.sources.map((source) => source.title)).toEqual(["Theodore Roosevelt: State of the Union address, 1901"]);
    }
  });

  it("takes a middle initial the question gives as the name's: George W. Bush is not George Bush when both spoke", async () => {
    const bushes = ["George Bush", "George W Bush"];
    expect(bushes.filter(personAmong("George W. Bush", bushes))).toEqual(["George W Bush"]);
    expect(bushes.filter(personAmong("George H. W. Bush", bushes))).toEqual(["George Bush"]);
    expect(bushes.filter(personAmong("George Bush", bushes))).toEqual(bushes);
    // Initials run together, and a nickname, carry the same middle initials.
    expect(bushes.filter(personAmong("GHW Bush", bushes))).toEqual(["George Bush"]);
    expect(bushes.filter(personAmong("GW Bush", bushes))).toEqual(["George W Bush"]);
    expect(bushes.filter(personAmong("Dubya", bushes))).toEqual(["George W Bush"]);
    const docs = [
      speech("George Bush", 1992, "A mandate just increases someone else's burden, and that means higher taxes at the State and local level."),
      speech("George W Bush", 2004, "Congress has some unfinished business on the issue of taxes."),
      speech("William J Clinton", 1996, "The budget bill I vetoed would have raised taxes on nearly 8 million of these people."),
    ];
    const result = await ask("How did Bill Clinton and George W. Bush differ on taxes?", "standard", docs);
    expect(result.answer?.text).toContain('George W Bush (2004) said "Congress has some unfinished business on the issue of taxes"');
    expect(result.sources.map((source) => source.title)).not.toContain("George Bush: State of the Union address, 1992");
  });

  it("answers what one person said from that person's own pages: another speaker's are not quoted", async () => {
    const docs = [
      speech("Joseph R Biden", 2021, "We are creating hundreds of thousands of new jobs. The economy is growing."),
      speech("William J Clinton", 1995, "We have almost 6 million new jobs since I became President. The deficit is falling."),
    ];
    const result = await ask("How many new jobs did Bill Clinton say the economy had created?", "standard", docs);
    expect(result.sources.map((source) => source.title)).toEqual(["William J Clinton: State of the Union address, 1995"]);
    expect(result.brief).not.toContain("hundreds of thousands");
  });

  it("reads 'President X' as a name, not a question asking for a president", () => {
    expect(analyzeQuestion("What did President Roosevelt say about the four freedoms?").expects).toBe("description");
    expect(analyzeQuestion("Which president declared war on poverty?").expects).toBe("person");
  });

  it("holds a topic's words in order with a few words between, never across a stopword or reversed", () => {
    const compounds = new Set(["four freedom"]);
    expect(holdsCompound(words("a world founded upon four essential human freedoms"), compounds)).toBe(true);
    expect(holdsCompound(words("the four freedoms"), compounds)).toBe(true);
    expect(holdsCompound(words("four battleships were laid down, and freedom of the seas"), compounds)).toBe(false);
    expect(holdsCompound(words("four new and costly freedoms"), compounds)).toBe(false);
    expect(holdsCompound(words("freedom for four nations"), compounds)).toBe(false);
    expect(holdsCompound(words("four great essential human freedoms"), compounds)).toBe(false);
  });

  for (const mode of ["lite", "standard", "pro"] as const)
    for (const question of [
      "What did Franklin Roosevelt say about the four freedoms?",
      "What did Franklin Delano Roosevelt say about the four freedoms?",
      "What did FDR say about the four freedoms?",
      "What did F.D.R. say about the four freedoms?",
      "What did Pres. Roosevelt say about the four freedoms?",
      "What did President Roosevelt say about the four freedoms?",
    ])
      it(`${mode}: ${question} is answered from the 1941 address`, async () => {
        const result = await ask(question, mode);
        expect(result.answer?.text).toMatch(/four essential human freedoms/);
        expect(result.sources.map((source) => source.title)).toContain("Franklin D Roosevelt: State of the Union address, 1941");
        expect(result.sources.every((source) => source.title.startsWith("Franklin D Roosevelt"))).toBe(true);
        expect(result.brief).not.toMatch(/No source read covers/);
      });
});

describe("what a document says about itself: the year of the speech whose sentence does it", () => {
  for (const mode of ["lite", "standard", "pro"] as const)
    for (const question of [
      "In which year did Lyndon Johnson declare an unconditional war on poverty?",
      "When did Lyndon Johnson declare an unconditional war on poverty?",
      "In what year did LBJ declare war on poverty?",
    ])
      it(`${mode}: ${question} -> 1964, quoting the sentence and the title that holds the year`, async () => {
        const result = await ask(question, mode);
        expect(result.answer?.text).toBe("1964");
        expect(result.answer?.confidence).toBe("medium");
        const cited = result.sources[result.answer!.citations[0]!]!;
        expect(cited.title).toBe("Lyndon B Johnson: State of the Union address, 1964");
        expect(result.brief).toContain(
          'In 1964 (Lyndon B Johnson: State of the Union address, 1964): "This administration today, here and now, declares unconditional war on poverty in America"',
        );
      });

  it("takes no year from a sentence that reports the act in the past, quotes it, or is another speaker's", async () => {
    // Reagan's "the Federal Government declared war on poverty" reports it; without Johnson's 1964 address there is no year to give.
    const withoutJohnson = SPEECHES.filter((doc) => !doc.title.includes("1964"));
    expect((await ask("In which year was an unconditional war on poverty declared?", "standard", withoutJohnson)).answer?.text ?? "").not.toMatch(/^\d{4}$/);
    expect((await ask("In which year did Ronald Reagan declare an unconditional war on poverty?")).answer?.text ?? null).not.toBe("1964");
  });

  it("takes the speech that set something out, not a later one telling of it ('Two years ago I spoke … of four freedoms')", async () => {
    for (const question of ["In what year did Franklin Roosevelt describe the four freedoms?", "When did FDR set out the four freedoms?"]) {
      const result = await ask(question);
      expect(result.answer?.text, question).toBe("1941");
      expect(result.brief).toContain('In 1941 (Franklin D Roosevelt: State of the Union address, 1941): "In the future days');
    }
  });

  it("dates an act on what it names when the speech names them in the sentences before ('States like these … constitute an axis of evil')", async () => {
    const bush = [
      speech(
        "George W Bush",
        2002,
        "North Korea is a regime arming with missiles. Iran aggressively pursues these weapons and exports terror. Iraq continues to flaunt its hostility toward America. States like these and their terrorist allies constitute an axis of evil, arming to threaten the peace of the world.",
      ),
      speech("George W Bush", 2003, "Iraq, Iran and North Korea remain dangers. Evil is real, and it must be opposed."),
    ];
    const result = await ask("When did George W. Bush call Iraq, Iran and North Korea an axis of evil?", "standard", bush);
    expect(result.answer?.text).toBe("2002");
    expect((await ask("Who called Iraq, Iran and North Korea an axis of evil?", "standard", bush)).answer?.text).toBe("George W Bush");
    expect(result.brief).toContain('"States like these and their terrorist allies constitute an axis of evil');
    // What is done to them must be said in one sentence: the page naming them and "evil" apart gives no year.
    const apart = await ask("When did George W. Bush call Iraq, Iran and North Korea an axis of evil?", "standard", [bush[1]!]);
    expect(apart.answer?.text ?? "").not.toMatch(/^\d{4}$/);
  });

  it("answers who did it with the speaker of the speech whose sentence does it, quoting the sentence after the title's words", async () => {
    for (const question of ["Which president declared an unconditional war on poverty?", "Who declared an unconditional war on poverty?"]) {
      const result = await ask(question);
      expect(result.answer?.text, question).toBe("Lyndon B Johnson");
      expect(result.answer?.confidence).toBe("medium");
      expect(result.brief).toContain(
        'Lyndon B Johnson (State of the Union address, 1964): "This administration today, here and now, declares unconditional war on poverty in America" [1]',
      );
    }
    // Reagan's "the Federal Government declared war on poverty" reports the act: without Johnson's address, no one did it.
    const withoutJohnson = SPEECHES.filter((doc) => !doc.title.includes("1964"));
    expect((await ask("Which president declared war on poverty?", "standard", withoutJohnson)).answer?.text ?? null).not.toBe("Ronald Reagan");
    // Two speakers doing it: no one speaker is the answer.
    const twice = [...SPEECHES, speech("Ronald Reagan", 1985, "Again this administration declares unconditional war on poverty in America.")];
    expect((await ask("Which president declared an unconditional war on poverty?", "standard", twice)).answer?.text ?? null).toBeNull();
  });

  it("holds who did it to the year the question dates the act: the speech of that year, whose sentence says no year", async () => {
    expect((await ask("Which president declared an unconditional war on poverty in 1964?")).answer?.text).toBe("Lyndon B Johnson");
    expect((await ask("Who declared an unconditional war on poverty in 1966?")).answer?.text ?? null).toBeNull();
    // A treaty with China signed in 1903 is no treaty signed in 1898.
    const treaty = [
      speech(
        "Theodore Roosevelt",
        1903,
        "The signing of a new commercial treaty with China, which took place at Shanghai, is a cause for satisfaction. The United States stands ready.",
      ),
    ];
    expect((await ask("Who signed the treaty with the United States in 1898?", "standard", treaty)).answer?.text ?? null).toBeNull();
    expect((await ask("Who signed the treaty with the United States in 1903?", "standard", treaty)).answer?.text).toBe("Theodore Roosevelt");
  });

  it("gives the earliest year when the question asks when it was first done", async () => {
    const truman = [
      speech("Harry S Truman", 1949, "Every segment of our population has a right to expect from our Government a fair deal."),
      speech("Harry S Truman", 1952, "This Government of ours must keep on working to bring about a fair deal for the people."),
    ];
    expect((await ask("When did Harry Truman first speak of a fair deal?", "standard", truman)).answer?.text).toBe("1949");
    expect((await ask("When did Harry Truman speak of a fair deal?", "standard", truman)).answer?.text ?? "").not.toMatch(/^\d{4}$/);
  });

  it("holds the act's words the question writes side by side as written: 'a new balance in our system of federalism' is no New Federalism", async () => {
    const docs = [
      speech("Gerald R Ford", 1976, "We must strike a new balance in our system of federalism. The economy is recovering."),
      speech("Richard Nixon", 1970, "It is time for a New Federalism, in which power will flow back to the States."),
    ];
    expect((await ask("Which president called for a new federalism?", "standard", docs)).answer?.text).toBe("Richard Nixon");
    expect((await ask("Which president called for a new federalism?", "standard", [docs[0]!])).answer?.text ?? null).not.toBe("Gerald R Ford");
  });

  it("reads a verb before 'that' as saying what follows: 'declare that the era of big government is over'", async () => {
    const docs = [speech("William J Clinton", 1996, "We know big Government does not have all the answers. The era of big Government is over.")];
    expect((await ask("When did Bill Clinton declare that the era of big government is over?", "standard", docs)).answer?.text).toBe("1996");
    expect((await ask("Which president declared that the era of big government is over?", "standard", docs)).answer?.text).toBe("William J Clinton");
  });

  it("reads 'cannot' as 'can not', and searches a claim someone said as the phrase it is", async () => {
    const docs = [
      speech("Abraham Lincoln", 1862, "We say we are for the Union. Fellow-citizens, we can not escape history."),
      speech("Ronald Reagan", 1982, '"We cannot escape history," Abraham Lincoln warned. The deficit is large.'),
    ];
    expect((await ask("When did Lincoln say that we cannot escape history?", "standard", docs)).answer?.text).toBe("1862");
    // Reagan's sentence quotes Lincoln: it is not Reagan saying it.
    expect((await ask("Which president said that we cannot escape history?", "standard", docs)).answer?.text).toBe("Abraham Lincoln");
    expect(saidClaim("Which president said that we cannot escape history, and in what year?")).toBe("escape history");
    expect(saidClaim("Did Bill Clinton say the era of big government is over?")).toBe("era of big government");
    expect(saidClaim("What did Lincoln say about slavery?")).toBeNull();
    expect(saidClaim("Did Lincoln say anything about the war?")).toBeNull();
    const analysis = analyzeQuestion("Which president said that we cannot escape history?");
    expect(planBranches(analysis, 2)[1]).toBe(`"escape history"`);
  });

  it("answers 'did X say Y' yes from X's sentence that says Y, quoting it; another speaker's or other words are no answer", async () => {
    const docs = [
      speech("William J Clinton", 1996, "We know big Government does not have all the answers. The era of big Government is over."),
      speech("Ronald Reagan", 1987, "We have deficits because big government spends too much."),
    ];
    const said = await ask("Did Bill Clinton say the era of big government is over?", "standard", docs);
    expect(said.answer?.text).toBe("yes");
    expect(said.brief).toContain('Yes: William J Clinton (1996) said "The era of big Government is over" [1]');
    for (const question of ["Did Ronald Reagan say the era of big government is over?", "Did Bill Clinton say the era of big government is not over?"])
      expect((await ask(question, "standard", docs)).answer?.text ?? null, question).toBeNull();
  });

  it("takes a speaker quoting their own words as who said them, never as when", async () => {
    const docs = [
      speech("Franklin D Roosevelt", 1936, 'I have said, "The only thing we have to fear is fear itself." The recovery goes on.'),
      speech("Harry S Truman", 1953, 'As Franklin Roosevelt told us, "The only thing we have to fear is fear itself." We face the future.'),
    ];
    expect((await ask("Which president said the only thing we have to fear is fear itself?", "standard", docs)).answer?.text).toBe("Franklin D Roosevelt");
    expect((await ask("When did Franklin Roosevelt say the only thing we have to fear is fear itself?", "standard", docs)).answer?.text ?? "").not.toMatch(
      /^\d{4}$/,
    );
    // Quoting someone else names no one.
    expect((await ask("Which president said the only thing we have to fear is fear itself?", "standard", [docs[1]!])).answer?.text ?? null).toBeNull();
  });

  it("holds a negated act to a negating sentence, and a claim's own words before a sentence holding them otherwise", async () => {
    const docs = [
      speech(
        "Gerald R Ford",
        1975,
        "Mr. Truman stood here, and I must say to you that the state of the Union is not good: Millions of Americans are out of work.",
      ),
      speech("Gerald R Ford", 1976, "Tonight, I report that the state of our Union is better-in many ways a lot better-but still not good enough."),
      speech("Gerald R Ford", 1977, "I can report that the state of the Union is good. There is still more to be done."),
    ];
    expect((await ask("In what year did Gerald Ford say the state of the union is not good?", "standard", docs)).answer?.text).toBe("1975");
    // Without the 1975 address, neither the good state of 1977 nor the "not good enough" of 1976 says it.
    expect((await ask("In what year did Gerald Ford say the state of the union is not good?", "standard", [docs[2]!])).answer?.text ?? "").not.toMatch(
      /^\d{4}$/,
    );
  });

  it("takes a claim the question says someone said only from a sentence saying it in those words", () => {
    const evidence = new Evidence();
    evidence.add(
      speech("Barack Obama", 2014, "Tonight I ask every business leader in America to join us, because we are stronger when America fields a full team."),
      "sotu.corpus",
      1,
      [],
    );
    const passage = evidence.docs[0]!.passages[0]!;
    const reading = readAct(analyzeQuestion("Which president said that the business of America is business?"), [], new Set(), 1)!;
    expect(reading.claim).toBe("business of america is business");
    // The typed output's who field reads the act this way (minWords 1): the words alone are not the claim.
    expect(doesTheAct(reading, "Barack Obama", passage, () => passage.terms)).toBe(false);
  });

  it("gives no year when the speeches doing it disagree", async () => {
    const twice = [...SPEECHES, speech("Lyndon B Johnson", 1965, "Again this administration declares unconditional war on poverty in America.")];
    expect((await ask("In which year did Lyndon Johnson declare an unconditional war on poverty?", "standard", twice)).answer?.text ?? "").not.toMatch(
      /^\d{4}$/,
    );
  });
});

describe("a measure named for someone, written by its kind in its own time", () => {
  const docs: FakeDoc[] = [
    speech(
      "Benjamin Harrison",
      1890,
      "The general tariff act has only partially gone into operation, some of its important provisions being limited to take effect at dates yet in the future. It is not doubted that a special arrangement in regard to commerce, based upon the reciprocity provision of the recent tariff act, would operate most beneficially.",
    ),
    speech("William Mc Kinley", 1899, "The war with Spain is over. Our army has returned home."),
    speech("Theodore Roosevelt", 1901, "On the sixth of September, President McKinley was shot by an anarchist at Buffalo."),
  ];

  it("'What did the McKinley Tariff do?' is addressed by 'the tariff act', and quotes the tariff, not the sentences naming McKinley", async () => {
    for (const mode of ["lite", "standard"] as const) {
      const result = await ask("What did the McKinley Tariff do?", mode, docs);
      expect(result.answer?.text, mode).toMatch(/tariff act/);
      expect(result.sources.map((source) => source.title)).toContain("Benjamin Harrison: State of the Union address, 1890");
      expect(result.brief).not.toMatch(/anarchist/);
    }
  });

  it("the kind alone, or a name that is no kind of measure, is not addressed", async () => {
    const tariffOnly = [speech("Grover Cleveland", 1887, "The tariff is a tax. We must reduce the tariff.")];
    // Nothing found at all is an error of its own (NoEvidenceError); something read and not addressing it cites nothing.
    const cited = (question: string, pages: FakeDoc[]) =>
      ask(question, "standard", pages).then(
        (result) => result.sources.length,
        () => 0,
      );
    expect(await cited("What did the McKinley Tariff do?", tariffOnly)).toBe(0);
    expect(await cited("What did the Marshall Plan do?", docs)).toBe(0);
  });
});

describe("a measure named for a place, written in its own time by what was done with the place", () => {
  const docs: FakeDoc[] = [
    speech(
      "Thomas Jefferson",
      1803,
      "Should the acquisition of Louisiana be constitutionally confirmed, a sum of nearly $13 millions will be added to our public debt. The Indians are at peace.",
    ),
    speech(
      "Thomas Jefferson",
      1804,
      "The Piankeshaws having some claim to the country ceded by the Delawares, it has been thought best to quiet that by fair purchase also. Our harbors need defense.",
    ),
  ];

  it("'the Louisiana Purchase' is the acquisition or cession of Louisiana, never a purchase or a cession of somewhere else", async () => {
    const { brief } = await ask("What did Thomas Jefferson say about the Louisiana Purchase?", "standard", docs);
    expect(brief).toContain("Should the acquisition of Louisiana be constitutionally confirmed");
    expect(brief).not.toContain("Piankeshaws");
  });

  it("is announced by the acquisition, not by a cession of Louisiana to another nation", async () => {
    const france = speech(
      "Thomas Jefferson",
      1802,
      "The cession of the Spanish Province of Louisiana to France, which took place in the course of the late war, will make a change in our foreign relations. Our revenue grows.",
    );
    expect((await ask("When did Jefferson announce the Louisiana Purchase?", "standard", [france, ...docs])).answer?.text).toBe("1803");
  });

  it("lists who spoke of it in a typed field", async () => {
    const result = await askTyped("Which presidents talked about the Louisiana Purchase?", docs, {
      type: "object",
      properties: { presidents: { type: "array", items: { type: "string" } } },
      required: ["presidents"],
    });
    expect(result.typed).toEqual({ presidents: ["Thomas Jefferson"] });
  });
});

describe("said in several years, by several speakers (ninth round)", () => {
  const ATOMS = [
    speech(
      "Dwight D Eisenhower",
      1956,
      "Moreover, the awesome power of the atom must be made to serve as a guardian of the free community and of the peace. Our Atoms for Peace program has been a practical step toward the world-wide use of this new energy source.",
    ),
    speech("Dwight D Eisenhower", 1958, "We have as a guide and inspiration the success of our Atoms-for-Peace proposal. Our defenses are strong."),
    speech("Dwight D Eisenhower", 1955, "The farm program is working. Our highways need repair."),
  ];

  it("answers 'in what year did X talk about Y' with every year X's speeches say it, quoting the sentence that says it as the question does", async () => {
    const result = await ask("In what year did President Eisenhower talk about atoms for peace?", "standard", ATOMS);
    expect(result.answer?.text).toBe("1956 and 1958");
    const opening = result.brief.split("\n")[0]!;
    expect(opening).toContain("Our Atoms for Peace program");
    expect(opening).not.toContain("awesome power of the atom");
  });

  it("takes quotation marks around the asked phrase alone as a name, not someone else's words", async () => {
    const quotedName = speech(
      "Dwight D Eisenhower",
      1961,
      'The "Atoms for Peace" proposal to the United Nations led to the creation of the International Atomic Energy Agency.',
    );
    const result = await ask("In what year did President Eisenhower talk about atoms for peace?", "standard", [...ATOMS, quotedName]);
    expect(result.answer?.text).toBe("1956, 1958 and 1961");
    // Someone else's words stay theirs: a quotation holding more than the phrase is no speech of his.
    const quoting = speech("Dwight D Eisenhower", 1960, 'A critic wrote that "atoms for peace is a slogan without a program" in every paper.');
    expect((await ask("In what year did President Eisenhower talk about atoms for peace?", "standard", [...ATOMS, quoting])).answer?.text).toBe(
      "1956 and 1958",
    );
  });

  it("reads 'warn' as saying, and 'against' as no word of the act; 'I have repeatedly recommended' tells of earlier speeches, not when", async () => {
    const monroe = speech(
      "James Monroe",
      1823,
      "The occasion has been judged proper for asserting, as a principle, that the American continents are henceforth not to be considered as subjects for future colonization by any European powers. The navy is employed.",
    );
    const warned = await ask("In what year did James Monroe warn European powers against future colonization of the American continents?", "standard", [
      ...SPEECHES,
      monroe,
    ]);
    expect(warned.answer?.text).toBe("1823");
    const truman = speech(
      "Harry S Truman",
      1952,
      "I have repeatedly recommended national health insurance as the best way to do this. Our strength depends upon health.",
    );
    const reading = readAct(analyzeQuestion("When did Harry Truman propose national health insurance?"), ["Harry S Truman"])!;
    const evidence = new Evidence();
    evidence.add(truman, "sotu.corpus", 1, []);
    const passage = evidence.docs[0]!.passages[0]!;
    expect(reading.wanted).toEqual(["national", "health", "insurance"].map((word) => expect.stringMatching(new RegExp(`^${word.slice(0, 5)}`))));
    expect(doesTheAct(reading, "Harry S Truman", passage, () => passage.terms, true)).toBe(false);
    expect(doesTheAct(reading, "Harry S Truman", passage, () => passage.terms, false)).toBe(true);
  });

  it("names every president whose speech says it for 'Which presidents mentioned …', each quoted", async () => {
    const corps = [
      speech("John F Kennedy", 1963, "Nothing carries the spirit of American idealism farther than the American Peace Corps. Our economy grows."),
      speech("George W Bush", 2002, "So we will renew the promise of the Peace Corps and double its volunteers. We are at war."),
      speech("James Madison", 1812, "The corps of engineers is at work. Peace with the Indian tribes has been kept."),
    ];
    const result = await ask("Which presidents mentioned the Peace Corps?", "standard", corps);
    expect(result.answer?.text).toMatch(/^(?:John F Kennedy and George W Bush|George W Bush and John F Kennedy)$/);
    expect(result.brief).toContain('John F Kennedy (State of the Union address, 1963): "Nothing carries the spirit');
    expect(result.answer?.text).not.toContain("Madison");
  });
});

describe("names the older pages spell another way (twelfth round)", () => {
  it("'Viet-Nam' and 'Porto Rico' are Vietnam and Puerto Rico to match, and quoted as written", async () => {
    expect(words("The spearpoint of aggression has been blunted in Viet-Nam, and in Viet Nam.")).toEqual([
      ...words("The spearpoint of aggression has been blunted in"),
      "vietnam",
      "and",
      "in",
      "vietnam",
    ]);
    expect(words("the citizens of Porto Rico and of Servia")).toEqual(["the", "citizens", "of", "puerto", "rico", "and", "of", "serbia"]);
    const docs = [
      speech("John F Kennedy", 1963, "The spearpoint of aggression has been blunted in Viet-Nam. Our economy grows."),
      speech("Theodore Roosevelt", 1906, "American citizenship should be conferred on the citizens of Porto Rico. The Navy is ready."),
    ];
    const vietnam = await ask("Did Kennedy ever mention Vietnam?", "standard", docs);
    expect(vietnam.answer?.text).toBe("yes");
    expect(vietnam.brief).toContain("blunted in Viet-Nam");
    expect((await ask("What did Theodore Roosevelt say about Puerto Rico?", "standard", docs)).brief).toContain(
      '"American citizenship should be conferred on the citizens of Porto Rico"',
    );
  });
});

describe("a name set out once (twelfth round)", () => {
  const deals = [
    speech(
      "Harry S Truman",
      1949,
      "Every segment of our population and every individual has a right to expect from our Government a fair deal. Our economy is strong.",
    ),
    speech("Lyndon B Johnson", 1968, "These measures are a pledge to our people, to give them a fair deal in the marketplace. We will act."),
    speech("Calvin Coolidge", 1927, "We know that peace comes from honesty and fair dealing. The Navy is ready."),
    speech("Ronald Reagan", 1982, "I propose tax cuts for every family. The budget will balance."),
    speech("George Bush", 1990, "I propose tax cuts on capital gains. We will grow."),
  ];

  it("searches the name of a thing as the phrase it is, never a person's name (other speakers say 'Franklin Roosevelt' whole)", () => {
    expect(planBranches(analyzeQuestion("Which president announced the Fair Deal?"), 4)).toContain('"Fair Deal" Fair Deal');
    expect(planBranches(analyzeQuestion("Which president proposed a second Bill of Rights?"), 4)).toContain('"Bill of Rights" Bill of Rights');
    const roosevelt = planBranches(analyzeQuestion("What did Franklin Roosevelt say about the four freedoms?"), 4);
    expect(roosevelt).toContain("Franklin Roosevelt");
    expect(roosevelt.some((branch) => branch.includes('"Franklin Roosevelt"'))).toBe(false);
  });

  it("'Which president announced the Fair Deal?' is addressed by the name said, and answered by whoever said it first", async () => {
    const result = await ask("Which president announced the Fair Deal?", "standard", deals);
    expect(result.addressed).toBe(true);
    expect(result.answer?.text).toBe("Harry S Truman");
    expect(result.brief).toContain('Harry S Truman (State of the Union address, 1949): "Every segment of our population');
  });

  it("'call for' sets something out: the year first said, unless the question asks for years", async () => {
    const sdi = [
      speech(
        "Ronald Reagan",
        1985,
        "It is a Strategic Defense Initiative aimed ultimately at finding a nonnuclear defense against ballistic missiles. We are strong.",
      ),
      speech(
        "Ronald Reagan",
        1988,
        "Our funding request for our Strategic Defense Initiative is less than 2 percent of the total defense budget. We are free.",
      ),
    ];
    expect((await ask("What year did Reagan call for a Strategic Defense Initiative?", "standard", sdi)).answer?.text).toBe("1985");
    expect((await ask("In which years did Reagan call for a Strategic Defense Initiative?", "standard", sdi)).answer?.text).toBe("1985 and 1988");
  });

  it("'Which president first …' reads across speakers, past the pages of the one who says it most", async () => {
    const climate = [
      ...[2009, 2010, 2011, 2012, 2013, 2014, 2015, 2016].map((year) =>
        speech("Barack Obama", year, `Climate change is real, and climate change is a threat. Our economy grew in ${year}.`),
      ),
      speech("Joseph R Biden", 2021, "Climate change is an existential threat, and we will meet climate change with jobs."),
      speech("William J Clinton", 1998, "Our overriding environmental challenge tonight is the worldwide problem of climate change. We are strong."),
    ];
    const result = await ask("Which president first mentioned climate change?", "standard", climate);
    expect(result.answer?.text).toBe("William J Clinton");
  });

  it("an act several did, and no name, stays unanswered", async () => {
    expect((await ask("Which president proposed tax cuts?", "standard", deals)).answer).toBeNull();
  });
});

describe("an act told of years later (ninth round)", () => {
  it("never takes 'Some years ago, the Federal Government declared war on poverty' as the speaker's declaration; 'declared war' is said 'declares … war'", async () => {
    expect((await ask("Which president declared war on poverty?")).answer?.text).toBe("Lyndon B Johnson");
    expect((await ask("In what year did Johnson declare war on poverty?")).answer?.text).toBe("1964");
  });

  it("gives a typed year of a claim only from a speech saying it, never from the speaker quoting it again", async () => {
    const docs = [speech("Franklin D Roosevelt", 1936, 'I have said, "The only thing we have to fear is fear itself." The recovery goes on.')];
    const result = await askTyped("Who said that the only thing we have to fear is fear itself?", docs, {
      type: "object",
      properties: { president: { type: "string" }, year: { type: ["integer", "null"] } },
      required: ["president", "year"],
    });
    expect(result.typed).toEqual({ president: "Franklin D Roosevelt", year: null });
  });
});

describe("what was said, in one word (ninth round)", () => {
  it("answers when someone talked about a one-word topic with the years they did; an act of one word still has none", async () => {
    const docs = [
      speech("Richard Nixon", 1974, "One year of Watergate is enough. The economy will grow."),
      speech("Richard Nixon", 1973, "The economy grew. Our troops came home."),
      speech("Abraham Lincoln", 1862, "Without slavery the rebellion could never have existed. The navy grows."),
      speech("Abraham Lincoln", 1864, "The rapid disappearance of slavery is a gain. The war goes on."),
    ];
    expect((await ask("When did Nixon talk about Watergate?", "standard", docs)).answer?.text).toBe("1974");
    expect((await ask("When did Lincoln speak of slavery?", "standard", docs)).answer?.text).toBe("1862 and 1864");
    // One word of an act is too little to tell it from a mention: "I will not resign" is no resignation.
    const resigning = [...docs, speech("Richard Nixon", 1972, "I will not resign. The economy grows.")];
    expect((await ask("When did Nixon resign?", "standard", resigning)).answer?.text ?? "").not.toMatch(/^\d{4}/);
  });

  it("searches a nickname's formal name with what is asked of it, the asking words left out and a name of several words as its phrase", () => {
    expect(planBranches(analyzeQuestion("In which year did FDR ask for a second Bill of Rights?"), 2)).toEqual([
      "In which year did FDR ask for a second Bill of Rights?",
      'Franklin D Roosevelt second "Bill of Rights"',
    ]);
  });
});

describe("a name asked about, said whole (tenth round)", () => {
  const docs = [
    speech(
      "Lyndon B Johnson",
      1965,
      "Mr. President, Mr. Speaker, Members of the Congress. TOWARD THE GREAT SOCIETY World affairs will continue to call upon our energy. But we are only at the beginning of the road to the Great Society.",
    ),
    speech("George W Bush", 2005, "Our second great responsibility to our children is to pass along the values that sustain a free society."),
    speech(
      "John F Kennedy",
      1961,
      "Mr. President, Members of the Congress: for the first time we can mobilize this talent through the formation of a National Peace Corps, enlisting all those with the desire to help.",
    ),
    speech(
      "John F Kennedy",
      1963,
      "Nothing carries the spirit of this American idealism more effectively to the far corners of the earth than the American Peace Corps.",
    ),
    speech("Lyndon B Johnson", 1964, "We must create a National Service Corps to help our own country as the Peace Corps now helps those abroad."),
    speech(
      "William H Taft",
      1911,
      "With the establishment of an Army Service Corps, as proposed in the bill, I am thoroughly in accord. The peace of the world is our aim.",
    ),
  ];

  it("answers who called for it from the sentences saying the name, quoting one that says it outside a run-in heading", async () => {
    const result = await ask("Which president called for a Great Society?", "standard", docs);
    expect(result.answer?.text).toBe("Lyndon B Johnson");
    expect(result.brief).toContain('"But we are only at the beginning of the road to the Great Society"');
  });

  it("answers who first proposed it with the earliest speaker saying it, and a typed year only from a page saying the name whole", async () => {
    expect((await ask("Which president first proposed the Peace Corps?", "standard", docs)).answer?.text).toBe("John F Kennedy");
    const result = await askTyped("Which president first proposed the Peace Corps?", docs, {
      type: "object",
      properties: { president: { type: "string" }, year: { type: "integer" } },
      required: ["president", "year"],
    });
    const typed = result.typed as { president: string; year: number } | null;
    expect(typed?.president).toBe("John F Kennedy");
    expect([1961, 1963]).toContain(typed?.year);
  });

  it("does not answer who someone is with a speaker who spoke of it", async () => {
    const moon = [
      speech(
        "Richard Nixon",
        1971,
        "Mr. President, Members of the Congress. The time has come in America when the same kind of concentrated effort that split the atom and put man on the moon should be directed toward conquering this dread disease.",
      ),
    ];
    expect((await ask("Who was the first man on the moon?", "standard", moon)).answer).toBeNull();
    expect((await ask("Which president was the first to mention the Peace Corps?", "standard", docs)).answer?.text).toBe("John F Kennedy");
  });

  it("names every speaker who said the words asked about, each quoted (an act several did stays unanswered: see above)", async () => {
    const strong = [
      speech(
        "William J Clinton",
        1996,
        "Mr. President, Members of the Congress. The state of the Union is strong. Our economy is the healthiest in three decades.",
      ),
      speech("Barack Obama", 2015, "Mr. President, Members of the Congress. The shadow of crisis has passed, and the State of the Union is strong."),
      speech("Jimmy Carter", 1980, "Mr. President, Members of the Congress. To be strong abroad we must be strong at home. The Union endures."),
    ];
    const result = await ask("Who said that the state of the Union is strong?", "standard", strong);
    expect(result.answer?.text).toBe("William J Clinton and Barack Obama");
    expect(result.brief.split("\n")[0]).toContain('William J Clinton (State of the Union address, 1996): "The state of the Union is strong."');
  });
});

describe("a year a saying is asked of, and a name asked about said whole (eleventh round)", () => {
  const docs = [
    speech(
      "Richard Nixon",
      1970,
      "Mr. President, Members of the Congress. The major immediate goal of our foreign policy is to bring an end to the war in Vietnam.",
    ),
    speech(
      "Richard Nixon",
      1973,
      "Mr. President, Members of the Congress. The peace with honor we have achieved in Vietnam has strengthened this basic American credibility.",
    ),
    speech("Lyndon B Johnson", 1968, "Mr. President, Members of the Congress. Tonight Vietnam must hold the center of our attention."),
  ];

  it("quotes that year's page of that speaker: the year is when it was said, not a word the sentence must hold", async () => {
    const result = await ask("What did Nixon say about Vietnam in 1970?", "standard", docs);
    expect(result.brief.split("\n")[0]).toContain(
      'Richard Nixon (1970) said "The major immediate goal of our foreign policy is to bring an end to the war in Vietnam"',
    );
    expect(result.sources.map((source) => source.title)).toEqual(["Richard Nixon: State of the Union address, 1970"]);
    // The year may stand before the topic too.
    const before = await ask("What did Nixon say in 1973 about Vietnam?", "standard", docs);
    expect(before.sources.map((source) => source.title)).toEqual(["Richard Nixon: State of the Union address, 1973"]);
  });
  const society = [
    speech("Lyndon B Johnson", 1965, "Mr. President, Members of the Congress. But we are only at the beginning of the road to the Great Society."),
    speech("Lyndon B Johnson", 1966, "Mr. President, Members of the Congress. I believe that we can continue the Great Society while we fight in Vietnam."),
    speech(
      "Donald J Trump",
      2020,
      "Mr. President, Members of the Congress. The next step forward in building an inclusive society is making sure that every young American gets a great education.",
    ),
    speech(
      "James Polk",
      1848,
      "Mr. President, Members of the Congress. The bank diffused throughout the mass of society a great number of individuals of power.",
    ),
  ];

  it("names only the speakers who say a name asked about whole, for 'Which presidents mentioned …'", async () => {
    const result = await ask("Which presidents mentioned the Great Society?", "standard", society);
    expect(result.answer?.text).toBe("Lyndon B Johnson");
  });

  it("quotes on a name asked about only sentences that say it whole ('a great education … an inclusive society' is not the Great Society)", async () => {
    const result = await ask("How did presidents describe the Great Society?", "standard", society);
    expect(result.sources.map((source) => source.title)).toEqual([
      "Lyndon B Johnson: State of the Union address, 1965",
      "Lyndon B Johnson: State of the Union address, 1966",
    ]);
    expect(result.brief).not.toMatch(/Trump|Polk/);
  });
  it("reads 'use the phrase …' and 'coin the term …' as saying those words: when first, and who", async () => {
    const axis = [
      speech(
        "George W Bush",
        2002,
        "Mr. President, Members of the Congress. States like these and their terrorist allies constitute an axis of evil, arming to threaten the peace of the world.",
      ),
      speech("George W Bush", 2003, "Mr. President, Members of the Congress. If this is not evil, then evil has no meaning."),
      speech(
        "Franklin D Roosevelt",
        1942,
        "Mr. President, Members of the Congress. The Axis powers knew that they must win the war by 1942. Their evil must be undone.",
      ),
    ];
    expect((await ask("When did George W. Bush first use the phrase axis of evil?", "standard", axis)).answer?.text).toBe("2002");
    expect((await ask("Which president coined the term axis of evil?", "standard", axis)).answer?.text).toBe("George W Bush");
  });
  it("answers when something was announced with the year it was first said, not every year it was spoken of again", async () => {
    const poverty = [
      speech(
        "Lyndon B Johnson",
        1964,
        "Mr. President, Members of the Congress. This administration today, here and now, declares unconditional war on poverty in America.",
      ),
      speech("Lyndon B Johnson", 1966, "Mr. President, Members of the Congress. We will speed up the war on poverty this year."),
      speech("Lyndon B Johnson", 1969, "Mr. President, Members of the Congress. The war on poverty has reached millions of Americans."),
    ];
    expect((await ask("What year did Lyndon B. Johnson announce the war on poverty?", "standard", poverty)).answer?.text).toBe("1964");
  });
  it("answers 'Which U.S. president …' as 'Which president …': the initials are neither a name asked about nor words of the act", async () => {
    const poverty = [
      speech(
        "Lyndon B Johnson",
        1964,
        "Mr. President, Members of the Congress. This administration today, here and now, declares unconditional war on poverty in America.",
      ),
      speech("Ronald Reagan", 1988, "Mr. President, Members of the Congress. Some years ago, the Federal Government declared war on poverty, and poverty won."),
    ];
    expect((await ask("Which U.S. president declared an unconditional war on poverty?", "standard", poverty)).answer?.text).toBe("Lyndon B Johnson");
  });
  it("answers what two speakers named together said ('Kennedy and Johnson' is read whole, and each is named by their pages)", async () => {
    const poverty = [
      speech(
        "John F Kennedy",
        1963,
        "Mr. President, Members of the Congress. Neither money nor technical assistance, however, can be our only weapon against poverty.",
      ),
      speech("Lyndon B Johnson", 1964, "Mr. President, Members of the Congress. For the war against poverty will not be won here in Washington."),
      speech("Ronald Reagan", 1988, "Mr. President, Members of the Congress. Some years ago, the Federal Government declared war on poverty, and poverty won."),
    ];
    const result = await ask("What did Kennedy and Johnson say about poverty?", "standard", poverty);
    expect(result.brief.split("\n")[0]).toMatch(/^On poverty, John F Kennedy \(1963\) said "Neither money nor technical assistance/);
    expect(result.brief).toContain("Lyndon B Johnson (1964) said");
    expect(result.brief).not.toContain("Reagan");
  });
});
