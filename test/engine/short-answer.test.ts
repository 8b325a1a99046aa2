import { describe, expect, it } from "vitest";
import {
  abbreviated,
  compareByFacts,
  countryIn,
  mentionAnswer,
  nameAfter,
  namesNationality,
  namesOfficeOnly,
  officeBefore,
  onEarlierHop,
  placeAsWritten,
  relatedNames,
  resolveChain,
  statedAttribute,
} from "../../src/research/engine/answer";
import { chainSentence, partialChainSentence, plainAnswerSentence } from "../../src/research/engine/answer";
import { analyzeQuestion, readComparison, readHopChain } from "../../src/research/engine/question";
import { relationTerms, stem } from "../../src/research/engine/language";
import { answerOutcome, evidenceOf } from "./helpers";

describe("hop decomposition", () => {
  it("reads 'the R of [kind] X' chains, innermost relation first", () => {
    expect(readHopChain("Where was the director of film Lorna (Film) born?")).toMatchObject({
      anchor: "Lorna (Film)",
      relations: ["director"],
      attribute: "birth_place",
    });
    expect(readHopChain("Who is the child of the director of film Devotion (1929 Film)?")).toMatchObject({
      anchor: "Devotion (1929 Film)",
      relations: ["director", "child"],
      attribute: "identity",
    });
    expect(readHopChain("What is the date of death of the composer of film Peter Pan (1976 Musical)?")).toMatchObject({
      relations: ["composer"],
      attribute: "death_date",
    });
  });

  it("reads possessives and the grandparents as two hops", () => {
    expect(readHopChain("When did Peter Holmes À Court's father die?")).toMatchObject({
      anchor: "Peter Holmes À Court",
      relations: ["father"],
      attribute: "death_date",
    });
    expect(readHopChain("Who is Charles, Duke Of Lower Lorraine's paternal grandmother?")).toMatchObject({
      anchor: "Charles, Duke Of Lower Lorraine",
      relations: ["father", "mother"],
      attribute: "identity",
    });
    expect(readHopChain("When is Douglas Maclean's father's birthday?")).toMatchObject({
      anchor: "Douglas Maclean",
      relations: ["father"],
      attribute: "birth_date",
    });
  });

  it("reads the attribute asked, in several wordings", () => {
    expect(readHopChain("What nationality is the performer of song Madan (Song)?")?.attribute).toBe("nationality");
    expect(readHopChain("Which country the composer of film Mirrormask is from?")?.attribute).toBe("nationality");
    expect(readHopChain("Why did the director of film X die?")?.attribute).toBe("cause_of_death");
    expect(readHopChain("In which city was the director of The Dark Knight born?")).toMatchObject({ anchor: "The Dark Knight", attribute: "birth_place" });
    expect(readHopChain("In which English city was the wife of the director of Vertigo (1958) born?")).toMatchObject({
      anchor: "Vertigo (1958)",
      relations: ["director", "spouse"],
    });
    // A citizenship asked with its preposition last, and a relation with a rank word before it.
    expect(readHopChain("What country was the author of Stave a citizen of?")).toMatchObject({
      anchor: "Stave",
      relations: ["author"],
      attribute: "nationality",
    });
    expect(readHopChain("Who is the spouse of Tall Grass's main director?")).toMatchObject({
      anchor: "Tall Grass",
      relations: ["director", "spouse"],
      attribute: "identity",
    });
  });

  it("gives no chain to questions of other shapes", () => {
    expect(readHopChain("Who is older, Samuel-Jacques Bernard or Usha Thakkar?")).toBeNull();
    expect(readHopChain("How did presidents talk about tariffs?")).toBeNull();
    expect(readHopChain("Who is the president?")).toBeNull();
  });

  it("reads a comparison as two chains and one fact", () => {
    expect(readComparison("Which film has the director born earlier, The Base (Film) or Darkened Rooms?")).toEqual({
      sides: [
        { name: "The Base (Film)", relations: ["director"] },
        { name: "Darkened Rooms", relations: ["director"] },
      ],
      fact: "birth_date",
      pick: "earliest",
    });
    expect(readComparison("Are director of film Sacro Gra and director of film Das Boot from the same country?")).toMatchObject({
      sides: [
        { name: "Sacro Gra", relations: ["director"] },
        { name: "Das Boot", relations: ["director"] },
      ],
      fact: "nationality",
      pick: "same",
    });
    expect(readComparison("Are Boise Airport and Grant County Regional Airport both located in the same country?")).toMatchObject({
      fact: "country",
      pick: "same",
    });
    // "the directors of films A and B": both sides follow the relation.
    expect(readComparison("Are the directors of films The Great London Mystery and Wagon Train (film) both from the same country?")).toMatchObject({
      sides: [
        { name: "The Great London Mystery", relations: ["director"] },
        { name: "Wagon Train (film)", relations: ["director"] },
      ],
      fact: "nationality",
    });
    expect(readComparison("Which film was released more recently, True Bromance or V Trestném Území?")).toMatchObject({ fact: "release_date", pick: "latest" });
    expect(readComparison("Who died first, Mary Elizabeth Rollins Lightner or Linda Hayes?")).toMatchObject({ fact: "death_date", pick: "earliest" });
    // "older" of a film's director is a birth; of a film, its release.
    expect(readComparison("Which film has the director who is older than the other, High Heels (1991 Film) or The Revolt Of The Slaves?")).toMatchObject({
      fact: "birth_date",
      pick: "earliest",
    });
    expect(readComparison("Which film is older, Pink Bomb or The Lady In Scarlet?")).toMatchObject({ fact: "release_date", pick: "earliest" });
    // Asked as a yes/no, but it asks which.
    expect(readComparison("Was Kurt Szilier or Lee Zeldin born first?")).toEqual({
      sides: [
        { name: "Kurt Szilier", relations: [] },
        { name: "Lee Zeldin", relations: [] },
      ],
      fact: "birth_date",
      pick: "earliest",
    });
  });
});

describe("a place as the sentence writes it", () => {
  it("keeps the places that contain it, and stops at a date or a word that is not a place", () => {
    expect(placeAsWritten("Ann Lee was born in Flushing, Queens, New York City, to a family of tailors.", "Flushing")).toBe("Flushing, Queens, New York City");
    expect(placeAsWritten("He was born in Westminster, London.", "Westminster")).toBe("Westminster, London");
    expect(placeAsWritten("She was born in Lyon, March 1901, the second child.", "Lyon")).toBe("Lyon");
    expect(placeAsWritten("He was born in Porto, and moved to Lisbon.", "Porto")).toBe("Porto");
    expect(placeAsWritten("Born in Ghent.", "Bruges")).toBe("Bruges");
    expect(placeAsWritten("He was born in Grimma, Kingdom of Saxony (now Germany).", "Grimma")).toBe("Grimma, Kingdom of Saxony");
    // A participle's subject after the comma is a person, not a place.
    expect(placeAsWritten("Born in Salsomaggiore Terme, Bazzoni started as camera operator.", "Salsomaggiore Terme")).toBe("Salsomaggiore Terme");
  });
});

describe("facts stated in one sentence", () => {
  it("finds the name a relation leads to, past descriptors", () => {
    expect(relatedNames("Last Rampage is a 2017 American crime drama film directed by Dwight H. Little.", "director")).toEqual(["Dwight H. Little"]);
    expect(nameAfter("American electronic music producer Dillon Francis and French DJ")).toBe("Dillon Francis");
    // An initial "A." opens a name; it is not the article.
    expect(relatedNames("Pearl Three is a 1987 Indian Tamil film, directed by A. Jagan.", "director")).toEqual(["A. Jagan"]);
    // A directorial debut names its director; a demonym and the role title after it are descriptors.
    expect(relatedNames("It marked the directorial debut of actor Alessio Gassi, who also starred.", "director")).toEqual(["Alessio Gassi"]);
    expect(relatedNames("She was First Lady, as wife of the Guatemalan President Jacobo Arbo Guzo.", "spouse")).toEqual(["Jacobo Arbo Guzo"]);
    expect(relatedNames("She was a daughter of the Aztec ruler Moctezuma II.", "father")).toEqual(["Moctezuma II"]);
    // A song written by someone is not performed by them.
    expect(relatedNames('"Meant for You" is a song written by David Lasley and Roxanne Seeman.', "performer")).toEqual([]);
    expect(relatedNames('"Get Low" is a 2014 single by American electronic music producer Dillon Francis.', "performer")).toEqual(["Dillon Francis"]);
    expect(relatedNames("Marrow is a play by the Norwegian playwright Halvard Esk.", "author")).toEqual(["Halvard Esk"]);
  });

  it("reads a maker as a work's lead writes it: one word before a participle, an appositive, a person who published it, an artist", () => {
    // A one-word name then the lead going on ("released"): the name, not a descriptor.
    expect(relatedNames("Vygon is a studio album by Marisa released in 2005 by Oak Records.", "performer")).toEqual(["Marisa"]);
    // "one of its stars, X": the appositive names the producer.
    expect(relatedNames("Tin Harbour is a 1985 comedy directed by Lew Tighe and produced by one of its stars, Michael Dorne.", "producer")).toEqual([
      "Michael Dorne",
    ]);
    expect(relatedNames("The film was produced by its studio, and released in May.", "producer")).toEqual([]);
    // A book published by a person is by that person; a publisher's name is no person.
    expect(relatedNames("Grey Ernest is a novel that was published in 1944 by Phoebe Ames Tyler writing as Alice Tull.", "author")).toEqual([
      "Phoebe Ames Tyler",
    ]);
    expect(relatedNames("The novel was published by Penguin Books in 1990.", "author")).toEqual([]);
    expect(relatedNames("It was published by Chatto & Windus.", "author")).toEqual([]);
    expect(relatedNames("The book was written by Tom Hale and published by Victor Gollan.", "author")).toEqual(["Tom Hale"]);
    expect(relatedNames("Leafwork II is a public art work by artist Bernd Heilig located near Milwaukee.", "creator")).toEqual(["Bernd Heilig"]);
  });

  it("names countries as pages write them, and a state outside the United States", () => {
    expect(countryIn("Ankara is the capital city of Turkey.")?.value).toBe("Turkey");
    expect(countryIn("Fist Reign is a 2000 Hong Kong action film.")?.value).toBe("Hong Kong");
    // "Port of Spain" names no country; the longer name holds the shorter ("Congo", "Ireland").
    expect(countryIn("Port of Spain is the capital of Trinidad and Tobago.")?.value).toBe("Trinidad and Tobago");
    expect(countryIn("Kinshasa is the capital of the Democratic Republic of the Congo.")?.value).toBe("Democratic Republic of the Congo");
    expect(countryIn("Belfast is the capital of Northern Ireland.")?.value).toBe("United Kingdom");
    expect(countryIn("Basseterre is in Saint Kitts and Nevis.")?.value).toBe("Saint Kitts and Nevis");
    expect(statedAttribute("Shrinagar is a small village in Ratnagiri district, Konkan, Maharashtra state, India.", "state")?.value).toBe("Maharashtra");
    expect(statedAttribute("Kochi is a city in the Indian state of Kerala.", "state")?.value).toBe("Kerala");
    expect(statedAttribute("Ikeja is the capital of Lagos State.", "state")?.value).toBe("Lagos State");
    expect(statedAttribute("a town in Wheaton, Illinois", "state")?.value).toBe("Illinois");
    expect(statedAttribute("He attended Ohio State University.", "state")).toBeNull();
    expect(statedAttribute("It is a city in the United States.", "state")).toBeNull();
  });

  it("reads life dates and places, with or without a space after the bracket", () => {
    const scardon = "Paul Scardon( 6 May 1874 in Melbourne, Victoria, Australia – 17 January 1954 in Fontana, California) was an actor.";
    expect(statedAttribute(scardon, "birth_date")?.value).toBe("6 May 1874");
    expect(statedAttribute(scardon, "death_date")?.value).toBe("17 January 1954");
    expect(statedAttribute(scardon, "birth_place")?.value).toBe("Melbourne");
    expect(statedAttribute(scardon, "death_place")?.value).toBe("Fontana");
    expect(statedAttribute("Born in Salsomaggiore Terme, Bazzoni started as camera operator in 1960.", "birth_place")?.value).toBe("Salsomaggiore Terme");
    // 2WikiMultihopQA's pages write some lives with the dash lost, the years glued to the next date.
    const glued = "Pierre Voss( 21 February 188524 July 1957) was a French stage actor.";
    expect(statedAttribute(glued, "birth_date")?.value).toBe("21 February 1885");
    expect(statedAttribute(glued, "death_date")?.value).toBe("24 July 1957");
    const spaced = "Albert Kell( October 7, 1894 May 2, 1989) was an American film director.";
    expect(statedAttribute(spaced, "birth_date")?.value).toBe("October 7, 1894");
    expect(statedAttribute(spaced, "death_date")?.value).toBe("May 2, 1989");
    // A birth name between "born" and the date.
    const renamed = "Linda Hale( born Bertha Lulu Williams, December 10, 1923 – May 26, 1998) was an American singer.";
    expect(statedAttribute(renamed, "birth_date")?.value).toBe("December 10, 1923");
    expect(statedAttribute(renamed, "death_date")?.value).toBe("May 26, 1998");
    expect(statedAttribute("Salif Keïta (born August 25, 1949) is an afro-pop singer-songwriter from Mali.", "nationality")?.value).toBe("Mali");
    expect(statedAttribute("Iain Ballamy (born 20 February 1964) is a British composer.", "nationality")?.value).toBe("British");
    expect(statedAttribute("Right There is a 2013 American short film written and directed by Nathan Suher.", "nationality")?.value).toBe("American");
    expect(statedAttribute("Efraín Burgos (born 1958) is a Puerto Rican politician.", "nationality")?.value).toBe("Puerto Rican");
  });

  it("reads lives written with their places beside the dates, natives, and a peer's title as part of the name", () => {
    const costa = "Mario Costa( Rome, 30 May 1904 – Rome, 22 October 1995) was an Italian actor.";
    expect(["birth_place", "birth_date", "death_place", "death_date"].map((fact) => statedAttribute(costa, fact as "birth_place")?.value)).toEqual([
      "Rome",
      "30 May 1904",
      "Rome",
      "22 October 1995",
    ]);
    const kane = "Jasper Joseph Inman Kane( March 19, 1894, San Diego – August 25, 1975, Santa Monica, California) was an American film director.";
    expect(statedAttribute(kane, "death_place")?.value).toBe("Santa Monica");
    expect(statedAttribute("He was a native of New York City.", "birth_place")?.value).toBe("New York City");
    expect(
      relatedNames("Henry Ulick Lascelles, 5th Earl of Harewood was a British peer and the son of Henry Lascelles, 4th Earl of Harewood.", "father"),
    ).toEqual(["Henry Lascelles, 4th Earl of Harewood"]);
  });

  it("does not read a film's year as a birth date", () => {
    expect(statedAttribute("Lorna (1964) is a film by Russ Meyer.", "birth_date")).toBeNull();
  });
});

describe("following a chain through the pages read", () => {
  const pages: [string, string][] = [
    ["Shadows Unseen", "Abuso di potere (internationally released as Shadows Unseen) is a 1972 Italian crime film directed by Camillo Bazzoni."],
    [
      "Camillo Bazzoni",
      "Camillo Bazzoni (born 29 December 1934) is an Italian cinematographer and film director. Born in Salsomaggiore Terme, Bazzoni started as camera operator in 1960.",
    ],
    ["Helmiä ja sikoja", "Helmiä ja sikoja is a 2003 Finnish comedy film directed by Perttu Leppä, and starring Laura Birn. Birn was born in Helsinki."],
  ];

  it("answers from the related entity's own page, each hop resting on a sentence", () => {
    const evidence = evidenceOf(pages);
    const resolved = resolveChain(readHopChain("Where was the director of film Shadows Unseen born?")!, evidence);
    expect(resolved.answer?.text).toBe("Salsomaggiore Terme");
    expect(resolved.steps.map((step) => step.entity)).toEqual(["Shadows Unseen", "Camillo Bazzoni"]);
    expect(resolved.steps[1]!.passage?.text).toContain("directed by Camillo Bazzoni");
  });

  it("never takes a fact about someone else on the anchor's page, and names the missing hop", () => {
    const evidence = evidenceOf(pages);
    const resolved = resolveChain(readHopChain("Where was the director of film Helmiä Ja Sikoja born?")!, evidence);
    expect(resolved.answer).toBeNull();
    expect(resolved.missing).toBe("Perttu Leppä");
  });

  it("reads the nationality of the last entity in the sentence that names it, when its page does not say it", () => {
    const evidence = evidenceOf([
      ["Marrow (play)", "Marrow is a play by the Norwegian playwright Halvard Esk. It was first performed in Stockholm, Sweden in 1867."],
      ["Low Water", "Low Water is a 1931 film directed by the Danish-born director Karl Ostrup."],
      ["Sea Glass", "Sea Glass is a 1950 film directed by the Dutch filmmaker Pieter Mol."],
      ["Pieter Mol", "Pieter Mol (1901 – 1977) was a Belgian film director."],
    ]);
    const play = resolveChain(readHopChain("What country was the author of Marrow a citizen of?")!, evidence);
    expect(play.steps.map((step) => step.entity)).toEqual(["Marrow", "Halvard Esk"]);
    expect(play.answer).toMatchObject({ text: "Norwegian", passage: { text: expect.stringContaining("Norwegian playwright Halvard Esk") } });
    // Born somewhere is not a nationality; and the person's own page, when read, says it first.
    expect(resolveChain(readHopChain("What nationality is the director of film Low Water?")!, evidence).answer).toBeNull();
    expect(resolveChain(readHopChain("What nationality is the director of film Sea Glass?")!, evidence).answer?.text).toBe("Belgian");
    // A question asking of which country someone was a citizen is answered with the country.
    const chainAnswer = (question: string) => answerOutcome(question, evidence).candidates?.find((candidate) => candidate.path === "chain")?.text;
    expect(chainAnswer("What country was the author of Marrow a citizen of?")).toBe("Norway");
    expect(chainAnswer("What nationality is the director of film Sea Glass?")).toBe("Belgian");
  });

  it("finds the page of a work the question names with its year or its subtitle", () => {
    const evidence = evidenceOf([
      ["Harbour Lights (song)", "Harbour Lights is a 1937 song by the Calloway Brothers."],
      ["Harbour Lights (film)", "Harbour Lights is a 1961 British drama film directed by Ruth Allenby."],
      ["Ruth Allenby", "Ruth Allenby (born 4 May 1921 in Stepney, London) is an English film director."],
      ["The Glass Orchard", "The Glass Orchard is an 1852 novel by Thomas Wren."],
      ["Thomas Wren", "Thomas Wren (3 June 1811 – 9 May 1880) was an English novelist, born in Hexham."],
    ]);
    const film = resolveChain(readHopChain("Where was the director of Harbour Lights (1961) born?")!, evidence);
    expect(film.steps.map((step) => step.doc?.title)).toEqual(["Harbour Lights (film)", "Ruth Allenby"]);
    // A place is answered as the sentence writes it, with what contains it.
    expect(film.answer?.text).toBe("Stepney, London");
    const novel = resolveChain(readHopChain("When was the author of The Glass Orchard; or, A Winter's Tale born?")!, evidence);
    expect(novel.steps.map((step) => step.doc?.title)).toEqual(["The Glass Orchard", "Thomas Wren"]);
    expect(novel.answer?.text).toBe("3 June 1811");
    // Of two pages of the same name, none is taken when neither says the year asked.
    expect(resolveChain(readHopChain("Where was the director of Harbour Lights (1975) born?")!, evidence).steps[0]!.doc).toBeNull();
  });

  it("follows a person to the place they were born or died in, and reads what contains it in that place's lead", () => {
    expect(readHopChain("In what county is the city where Marta Kellen was born?")).toMatchObject({
      anchor: "Marta Kellen",
      relations: ["birth_place"],
      attribute: "county",
    });
    expect(readHopChain("What county is Osric Vane's place of death the seat of?")).toMatchObject({ relations: ["death_place"], attribute: "county" });
    expect(readHopChain("In which state is the birthplace of the director of film Low Tide?")).toMatchObject({
      anchor: "Low Tide",
      relations: ["director", "birth_place"],
      attribute: "state",
    });
    expect(readHopChain("What county contains Harlow Springs, Ohio?")).toMatchObject({ anchor: "Harlow Springs, Ohio", relations: [], attribute: "county" });
    const evidence = evidenceOf([
      ["Marta Kellen", "Marta Kellen (born March 2, 1931, Harlow Springs, Ohio) is an American sculptor."],
      ["Harlow Springs, Ohio", "Harlow Springs is a village in Brecken County, Ohio, United States. It borders Tallis County to the north."],
      ["Low Tide", "Low Tide is a 1958 film directed by Osric Vane."],
      ["Osric Vane", "Osric Vane (May 1, 1901 in Dunmore, Pennsylvania – June 3, 1977 in Lisle, Vermont) was an American director."],
    ]);
    const county = resolveChain(readHopChain("In what county is the city where Marta Kellen was born?")!, evidence);
    expect(county.steps.map((step) => step.doc?.title)).toEqual(["Marta Kellen", "Harlow Springs, Ohio"]);
    expect(county.answer?.text).toBe("Brecken County");
    expect(resolveChain(readHopChain("In what country is Marta Kellen's birthplace?")!, evidence).answer?.text).toBe("United States");
    // No page of Lisle: the state the sentence wrote beside it answers, a county never would.
    const state = resolveChain(readHopChain("In which state is the place of death of the director of film Low Tide?")!, evidence);
    expect(state.answer?.text).toBe("Vermont");
    const unread = resolveChain(readHopChain("In what county is the town where Osric Vane died?")!, evidence);
    expect(unread.answer).toBeNull();
    expect(unread.missing).toBe("Lisle, Vermont");
    expect(statedAttribute("Dunmore is a borough in Lackawanna County, Pennsylvania.", "county")?.value).toBe("Lackawanna County");
    expect(statedAttribute("The capital is Washington, D.C., and the largest city is in Texas.", "state")?.value).toBe("Texas");
  });

  it("never takes the page of another place of the same name", () => {
    const evidence = evidenceOf([
      ["Emil Harth", "Emil Harth (16 April 1841, Bamberg - 7 July 1903, Bamberg) was a German historian."],
      ["Bamberg, South Carolina", "Bamberg is a city in and the county seat of Bamberg County, South Carolina, United States."],
      ["Ada Orme", "Ada Orme (born 1950 in Bamberg, South Carolina) is an American painter."],
    ]);
    // The page says "Bamberg" of a German historian, not South Carolina: no county is read for it.
    const german = resolveChain(readHopChain("What county contains the city where Emil Harth was born?")!, evidence);
    expect(german.answer).toBeNull();
    expect(german.missing).toBe("Bamberg");
    const painter = resolveChain(readHopChain("What county contains the city where Ada Orme was born?")!, evidence);
    expect(painter.answer?.text).toBe("Bamberg County");
  });

  it("tells a span on an earlier hop's page from the hop asked", () => {
    const evidence = evidenceOf([
      ["The Glass Orchard", "The Glass Orchard is an 1852 novel by Thomas Wren."],
      ["Thomas Wren", "Thomas Wren (3 June 1811 – 9 May 1880) was an English novelist. He was the son of Edward Wren and Anne Pell."],
      ["Anne Pell", "Anne Pell (12 March 1785 – 1850) was an English poet."],
    ]);
    const chain = readHopChain("When was the mother of the author of The Glass Orchard born?")!;
    const resolved = resolveChain(chain, evidence);
    const [wren, pell] = [evidence.docs[1]!, evidence.docs[2]!];
    // The author's own birth date, read on his page, answers the hop before the one asked.
    expect(onEarlierHop(chain, resolved.steps, "3 June 1811", wren.passages[0]!)).toBe(true);
    expect(onEarlierHop(chain, resolved.steps, "Thomas Wren", pell.passages[0]!)).toBe(true);
    expect(onEarlierHop(chain, resolved.steps, "12 March 1785", pell.passages[0]!)).toBe(false);
    // The entity whose attribute is asked, by a fuller form of its name, is not the attribute.
    expect(onEarlierHop(chain, resolved.steps, "Anne Margaret Pell", pell.passages[0]!)).toBe(true);
    const asked = readHopChain("What nationality is the author of The Glass Orchard?")!;
    const reached = resolveChain(asked, evidence);
    expect(onEarlierHop(asked, reached.steps, "Thomas Edward Wren", wren.passages[0]!)).toBe(true);
    expect(onEarlierHop(asked, reached.steps, "English", wren.passages[0]!)).toBe(false);
  });

  it("compares the stated facts of both sides", () => {
    const evidence = evidenceOf([
      ["Darkened Rooms", "Darkened Rooms is a 1929 American mystery film directed by Louis J. Gasnier."],
      ["Louis J. Gasnier", "Louis J. Gasnier (15 September 1875 – 15 February 1963) was a French director."],
      ["The Base (film)", "The Base is a 1999 action film directed by Mark L. Lester."],
      ["Mark L. Lester", "Mark Lester (born November 26, 1946) is an American film director."],
    ]);
    const compared = compareByFacts(readComparison("Which film has the director born earlier, The Base (Film) or Darkened Rooms?")!, evidence);
    expect(compared).toMatchObject({ text: "Darkened Rooms", confidence: "high" });
    expect(compared!.sentence).toContain("Louis J. Gasnier (Darkened Rooms) was born on 15 September 1875");
  });
});

describe("a comparison of nationalities", () => {
  it("does not decide 'same country' when one value holds the other ('Native American', 'American')", () => {
    const evidence = evidenceOf([
      ["Destiny (1915 film)", "Destiny is a 1915 American silent drama film directed by Edwin Carewe."],
      ["Edwin Carewe", "Edwin Carewe (March 3, 1883 – January 22, 1940) was a Native American motion picture director."],
      ["Maybe It's Love (1935 film)", "Maybe It's Love is a 1935 American comedy film directed by William C. McGann."],
      ["William C. McGann", "William C. McGann (April 15, 1893 – November 15, 1977) was an American film director."],
    ]);
    const plan = readComparison("Are the directors of films Destiny (1915 Film) and Maybe It's Love (1935 film) both from the same country?");
    expect(plan?.pick).toBe("same");
    expect(compareByFacts(plan!, evidence)).toBeNull();
    // Two values apart do decide.
    const italian = evidenceOf([
      ["Destiny (1915 film)", "Destiny is a 1915 American silent drama film directed by Edwin Carewe."],
      ["Edwin Carewe", "Edwin Carewe (March 3, 1883 – January 22, 1940) was a Native American motion picture director."],
      ["Maybe It's Love (1935 film)", "Maybe It's Love is a 1935 Italian comedy film directed by Mario Rossi."],
      ["Mario Rossi", "Mario Rossi (April 15, 1893 – November 15, 1977) was an Italian film director."],
    ]);
    expect(compareByFacts(plan!, italian)).toMatchObject({ text: "no" });
  });

  it("answers a nationality with a nationality, never another name on the person's page", () => {
    const evidence = evidenceOf([
      ["Growing Late", "Growing Late is a song written and recorded by Bruno Stelling."],
      ["Bruno Stelling", "Bruno Frederick Stelling (born 1949) is an American singer. He recorded with the Harbour Street Band for most of his career."],
    ]);
    const outcome = answerOutcome("What nationality is the performer of song Growing Late?", evidence);
    const texts = (outcome.candidates ?? []).map((candidate) => candidate.text);
    expect(texts).toContain("American");
    expect(texts).not.toContain("Harbour Street Band");
    expect(texts).not.toContain("Bruno Frederick Stelling");
    expect(namesNationality("Puerto Rican")).toBe(true);
    expect(namesNationality("Austria")).toBe(true);
    expect(namesNationality("E Street Band")).toBe(false);
  });
});

describe("the opening's frames", () => {
  it("fills a frame from the parts read, never re-spelling the question around a span", () => {
    const chain = analyzeQuestion("What is the place of birth of the director of film They Came To Cordura?").hops!;
    expect(chainSentence(chain.subjectPhrase, "Robert Rossen", chain.attribute, "New York City")).toBe(
      "The director of film They Came To Cordura is Robert Rossen, who was born in New York City.",
    );
    expect(chainSentence("the director of film Last Rampage", "Dwight H. Little", "birth_date", "January 13, 1956")).toBe(
      "The director of film Last Rampage is Dwight H. Little, who was born on January 13, 1956.",
    );
    expect(chainSentence("the director of film Last Rampage", "Dwight H. Little", "death_date", "1990")).toBe(
      "The director of film Last Rampage is Dwight H. Little, who died in 1990.",
    );
    expect(chainSentence("Isabel Moctezuma's father", "Moctezuma II", "identity", "Moctezuma II")).toBe("Isabel Moctezuma's father is Moctezuma II.");
    expect(partialChainSentence("the director of film X", "Robert Rossen", "birth_place")).toBe(
      "The director of film X is Robert Rossen; no source read states where Robert Rossen was born.",
    );
    expect(plainAnswerSentence("Lyon.")).toBe("Answer: Lyon.");
  });
});

describe("'did X mention Y' questions", () => {
  const speeches = evidenceOf([
    ["William J Clinton: State of the Union address, 1997", "We must connect every classroom to the Internet by the year 2000."],
    ["Joseph R Biden: State of the Union address, 2021", "We will bring affordable high-speed Internet to every American household."],
    ["Abraham Lincoln: State of the Union address, 1863", "The preliminary emancipation proclamation was running its assigned period."],
  ]);

  it("answers yes from the sentences that say the words, earliest first", () => {
    const found = mentionAnswer("Did any president ever mention the internet?", speeches);
    expect(found?.text).toBe("yes");
    expect(found?.sentence).toBe("Yes: 2 of the sources read mention internet, the earliest William J Clinton (1997) and the latest Joseph R Biden (2021).");
    expect(found?.basis.map((passage) => passage.text)[0]).toContain("connect every classroom to the Internet");
  });

  it("reads only the named speaker's pages, and never says no from the words' absence", () => {
    expect(mentionAnswer("Did Abraham Lincoln mention the internet?", speeches)).toBeNull();
    expect(mentionAnswer("Did Lincoln mention the emancipation proclamation?", speeches)?.text).toBe("yes");
  });

  it("hears a measure named for a place as its own time said it, never as a cession to another nation", () => {
    const louisiana = evidenceOf([
      ["Thomas Jefferson: State of the Union address, 1802", "The cession of the Spanish Province of Louisiana to France will change our foreign relations."],
      ["Thomas Jefferson: State of the Union address, 1803", "Should the acquisition of Louisiana be constitutionally confirmed, our debt will grow."],
    ]);
    const found = mentionAnswer("Did Thomas Jefferson mention the Louisiana Purchase?", louisiana);
    expect(found?.sentence).toBe("Yes: Thomas Jefferson (1803) mentions Louisiana Purchase in the sources read.");
    expect(found?.basis.map((passage) => passage.text)).toEqual(["Should the acquisition of Louisiana be constitutionally confirmed, our debt will grow."]);
  });

  it("counts one named speaker's pages as theirs, not as all the sources that mention it", () => {
    const both = evidenceOf([
      ["John F Kennedy: State of the Union address, 1961", "The Chinese Communists menace the borders of India and South Viet Nam."],
      ["John F Kennedy: State of the Union address, 1963", "The spearpoint of aggression has been blunted in Viet-Nam."],
      ["Lyndon B Johnson: State of the Union address, 1966", "Because of Vietnam we cannot do all that we should."],
    ]);
    expect(mentionAnswer("Did Kennedy ever mention Vietnam?", both)?.sentence).toBe(
      "Yes: John F Kennedy mentions Vietnam in 2 of the sources read, the earliest in 1961 and the latest in 1963.",
    );
  });
});

describe("the general path's spans, where they stand", () => {
  it("reads a place named twice where the asked words name it, not at its first mention", () => {
    const pages = evidenceOf([
      [
        "Dale Humbold",
        "Dale Humbold (December 31, 1918 – May 23, 2007) was a professional American football end in the National Football League. He played for the Philadelphia Eagles (1941, 1945–1949).",
      ],
      [
        "Philadelphia Eagles",
        "The Philadelphia Eagles are a professional American football franchise based in Philadelphia, Pennsylvania. The Eagles compete in the National Football League (NFL) as a member club of the National Football Conference.",
      ],
    ]);
    const texts = (answerOutcome("From 1945-1949 Dale Humbold played for an NFL team based in what state?", pages).candidates ?? []).map(
      (candidate) => candidate.text,
    );
    // "based in Philadelphia, Pennsylvania", with the state that contains it.
    expect(texts[0]).toBe("Philadelphia, Pennsylvania");
    expect(placeAsWritten("The Philadelphia Eagles are based in Philadelphia, Pennsylvania.", "Philadelphia", 37)).toBe("Philadelphia, Pennsylvania");
  });

  it("counts a name of another kind than asked for less: a league is no town", () => {
    const pages = evidenceOf([
      ["Vela Rovers", "Vela Rovers, a football club from Harlow, play their home games at Barrows Park and are based in the Essex Senior League."],
      ["Barrows Park", "Barrows Park is a football ground in Harlow, Essex."],
    ]);
    const texts = (answerOutcome("In what town are Vela Rovers based?", pages).candidates ?? []).map((candidate) => candidate.text);
    expect(texts[0]).toBe("Harlow");
  });

  it("reads who holds an office, not the office, its short form or the courtesy before the name", () => {
    expect(namesOfficeOnly("Prime Minister")).toBe(true);
    expect(namesOfficeOnly("Leader of the Opposition")).toBe(true);
    expect(namesOfficeOnly("Right Honourable")).toBe(true);
    expect(namesOfficeOnly("President Mohamud")).toBe(false);
    const office = (name: string) => name.slice(officeBefore(name));
    expect(office("President Mohamud")).toBe("Mohamud");
    expect(office("Premier Omar Ali Sharmarke")).toBe("Omar Ali Sharmarke");
    // An office whole, or an office of a place, is left as it is.
    expect(office("Prime Minister")).toBe("Prime Minister");
    expect(office("Prime Minister of Canada")).toBe("Prime Minister of Canada");
    const text = "The Leader of Opposition (LOP) in Malawi is a title. Bigg Boss Kannada 5 (BBK5) was a season.";
    expect(abbreviated(text, text.indexOf("LOP"), "LOP")).toBe("Leader of Opposition");
    expect(abbreviated(text, text.indexOf("BBK5"), "BBK5")).toBe("Bigg Boss Kannada 5");
    expect(abbreviated(text, text.indexOf("Malawi"), "Malawi")).toBeNull();
    const pages = evidenceOf([
      ["Tamberlo", "Tamberlo is a city in the north of Chad. The current mayor of Tamberlo is Hon. Idriss Kalam of the Unity Party, elected in 2016."],
    ]);
    const texts = (answerOutcome("Who is the current mayor of Tamberlo?", pages).candidates ?? []).map((candidate) => candidate.text);
    expect(texts[0]).toBe("Idriss Kalam");
  });

  it("says who was in charge with the offices that hold the charge, one way only", () => {
    const charge = relationTerms([stem("charge")]);
    expect(charge).toEqual(expect.arrayContaining(["mayor", "president", "governor"].map(stem)));
    // A question asking for the mayor does not ask for the president.
    expect(relationTerms([stem("mayor")])).not.toContain(stem("president"));
    expect(relationTerms([stem("mayor")])).not.toContain(stem("charge"));
  });

  it("reads a place a lead puts its subject in without the sentence's full stop", () => {
    const evidence = evidenceOf([
      ["Cold Harbour (song)", "Cold Harbour is a song by the rock band Pale Jam."],
      ["Pale Jam", "Pale Jam is an American rock band formed in 1990 in Tacoma, Washington. The band has five members."],
    ]);
    const query = analyzeQuestion("What is the usual average snowfall in the city where the performers of Cold Harbour were formed?");
    expect(query.description).not.toBeNull();
    const steps = resolveChain({ anchor: "Pale Jam", relations: ["in_place"], attribute: "identity", subjectPhrase: "" }, evidence).steps;
    expect(steps[steps.length - 1]!.entity).toBe("Tacoma, Washington");
  });

  it("reads a date whose month is cut short", () => {
    const pages = evidenceOf([
      ["Vessa Mounds", "The Vessa Mounds are an archaeological site in Lorton County, Mississippi."],
      [
        "History of Mississippi",
        "On Dec. 10, 1817, the western portion of Mississippi Territory became the State of Mississippi, the 20th state of the Union.",
      ],
    ]);
    const texts = (answerOutcome("When did Mississippi become the 20th state of the Union?", pages).candidates ?? []).map((candidate) => candidate.text);
    expect(texts).toContain("Dec. 10, 1817");
  });
});
