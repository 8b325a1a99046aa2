import { describe, expect, it } from "vitest";
import { json } from "../helpers";
import { apiCaller, docsLoaded, research, waitForTerminal } from "./helpers";

/**
 * Pro buys depth (issue 43, item 4), through HTTP: pro searches for what standard leaves
 * uncovered before writing (a side's name forms, a period's decades), and pro's brief is never
 * standard's word for word: it cites what standard cited and more where more exists.
 */
const DOMAIN = "pro-depth.example.org";
const speech = (speaker: string, year: number, text: string) => ({
  url: `https://${DOMAIN}/${year}-${speaker.toLowerCase().replace(/[^a-z]+/g, "-")}`,
  title: `${speaker}: State of the Union address, ${year}`,
  text,
  domain: DOMAIN,
});

const SURNAMES =
  "Abbott Barlow Carver Dalton Ellery Fenwick Garland Hollis Irving Jessup Kendall Lowell Mercer Norris Osgood Prescott Quimby Radcliffe Sumner Thayer Upton Vance Whitcomb Yardley".split(
    " ",
  );
const GIVEN = ["Alden", "Brooks", "Cyrus"];

/**
 * Seventy-two addresses by others, each saying much about the role of the federal government: what
 * any search for the topic finds first, so the one address of Franklin D Roosevelt that says it once
 * is found only by a search naming him.
 */
const OTHERS = SURNAMES.flatMap((surname, index) =>
  GIVEN.map((given, turn) =>
    speech(
      `${given} ${surname}`,
      1900 + index * 3 + turn,
      `The role of the federal government is a question for every generation. ` +
        `I believe the federal government has a role in our economy, and the role of the federal government must be limited by law. ` +
        `Our federal government will play its role in trade, in roads and in schools. ` +
        `Address number ${index * 3 + turn} closes with thanks to the Congress.`,
    ),
  ),
);

const REAGAN = [
  speech(
    "Ronald Reagan",
    1982,
    "The role of the federal government is to protect our freedom, not to run our lives. We will restore the balance between the federal government and the States.",
  ),
  speech("Ronald Reagan", 1986, "Keeping America strong, free, and at peace is solely the responsibility of the federal government; that is its prime role."),
];
const ROOSEVELT = speech(
  "Franklin D Roosevelt",
  1939,
  "We have had to forge new tools for a new role of government operating in a democracy. Our fathers built a Nation of farms and shops. " +
    "Today the farmer and the worker ask the Nation for security. The farmer has seen his prices fall and his debts rise. " +
    "The worker has seen his savings vanish in a single winter. Mothers and fathers want schools for their children and care for the old. " +
    "Young men look for work on the land, in the mills and in the mines. We have built dams, bridges and highways across the continent. " +
    "The crops of the plains now reach the cities by rail and by truck. Electric light has come to homes that never knew it. " +
    "Across the seas, other peoples watch what free men can do. We will meet these tasks with courage and with patience.",
);

const JOHNSON = [
  speech(
    "Lyndon B Johnson",
    1964,
    "This administration today, here and now, declares unconditional war on poverty in America. We shall not rest until that war is won.",
  ),
  speech("Lyndon B Johnson", 1966, "I recommend that we prosecute with vigor and determination our war on poverty. The Nation is at work."),
  speech(
    "Lyndon B Johnson",
    1967,
    "When, 3 years ago, you here in the Congress joined with me in a declaration of war on poverty, I warned that it would not be a short or easy struggle.",
  ),
  speech("Lyndon B Johnson", 1968, "Poverty is still with us, and the war on poverty goes on in our cities. The budget is before you."),
];

async function askBoth(question: string) {
  await docsLoaded([...OTHERS, ...REAGAN, ROOSEVELT, ...JOHNSON]);
  const caller = await apiCaller();
  const results: Record<string, any> = {};
  for (const mode of ["standard", "pro"]) {
    const response = await research(caller, { question, mode, include_domains: [DOMAIN], include_sources: true, async: true });
    expect(response.status).toBe(202);
    const done = await waitForTerminal(caller, (await json(response)).id, 60_000);
    expect(done.status).toBe("succeeded");
    results[mode] = done;
  }
  return { standard: results.standard, pro: results.pro };
}

const urls = (done: any): string[] => done.sources.map((source: any) => source.url);

describe("pro buys depth", () => {
  it("covers each side of a comparison by the name its pages are titled by; pro cites what standard cites, differs, and says what each side rests on", async () => {
    const { standard, pro } = await askBoth("How did Ronald Reagan and FDR differ on the role of the federal government?");
    // "FDR" as written finds none of Roosevelt's pages; both modes also search the name they are
    // titled by ("Franklin D Roosevelt role federal government"), standard among its four first
    // searches since the eighth round (pro's coverage search finds a side standard's searches
    // missed: test/engine/coverage.test.ts).
    expect(urls(standard)).toContain(ROOSEVELT.url);
    expect(standard.brief).not.toContain("No source read covers FDR's view");
    expect(urls(pro)).toContain(ROOSEVELT.url);
    expect(pro.brief).not.toContain("No source read covers FDR's view");
    expect(pro.brief.split("\n")[0]).toMatch(
      /Franklin D Roosevelt \(1939\) said "We have had to forge new tools for a new role of government operating in a democracy" \[\d+\]/,
    );
    // What standard cited (the fixture holds no further page of either speaker); never its brief word for word.
    for (const url of urls(standard)) expect(urls(pro)).toContain(url);
    expect(pro.brief).not.toBe(standard.brief);
    // And what each side's view rests on, in its last section.
    expect(pro.brief).toMatch(
      /\n## Coverage\nOn the role of the federal government, the sources read cover Ronald Reagan in 1982 and 1986 \[\d+\]\[\d+\]; Franklin D Roosevelt in 1939 \[\d+\]\.$/,
    );
    expect(standard.brief).not.toContain("## Coverage");
    expect([standard.credits_charged, pro.credits_charged]).toEqual([60, 200]);
  });

  it("on a question of one fact, cites what standard cited plus the further pages that speak to it", async () => {
    const { standard, pro } = await askBoth("In which year did Lyndon Johnson declare an unconditional war on poverty?");
    expect(pro.brief).not.toBe(standard.brief);
    for (const url of urls(standard)) expect(urls(pro)).toContain(url);
    expect(urls(pro).length).toBeGreaterThanOrEqual(urls(standard).length);
    // Every further page pro cites is one of Johnson's that speaks of the war on poverty: depth, not padding.
    const johnson = new Set(JOHNSON.map((doc) => doc.url));
    for (const url of urls(pro).filter((url: string) => !urls(standard).includes(url))) expect(johnson.has(url)).toBe(true);
    expect(pro.brief).toContain("This administration today, here and now, declares unconditional war on poverty in America");
  });
});
