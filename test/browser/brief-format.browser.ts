import { expect, test } from "@playwright/test";
import { type BriefBlock, lineSentences, markersIn, parseBrief, renderBrief } from "../../src/research/engine/write/brief-format";
import { finishedJob, signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

/**
 * A report as a model writes it in pro and max (issue 40, item 6): the opening, a `## Findings`
 * section of bullets, findings grouped under `**Title**` headings (the subject: here a source's
 * title), then `## Open questions`. Made of a real offline job's cited sentences (their [n] cite
 * its real sources), laid out by the format's own writer.
 */
function modelReport(job: { brief: string; sources: { title: string }[] }): { brief: string; groups: string[]; findings: string[] } {
  const sentences = parseBrief(job.brief).flatMap((block) => block.lines.flatMap(lineSentences));
  expect(sentences.length, `the offline brief has at least five cited sentences: ${job.brief.slice(0, 300)}`).toBeGreaterThanOrEqual(5);
  expect(job.sources.length).toBeGreaterThanOrEqual(2);
  // Each group under the title of the source its finding cites, as the extractive brief groups them.
  const groups = [sentences[3]!, sentences[4]!].map((sentence) => job.sources[markersIn(sentence)[0]! - 1]!.title);
  const findings = sentences.slice(1, 3);
  const report: BriefBlock[] = [
    { heading: null, bullets: false, lines: sentences.slice(0, 1) },
    { heading: { kind: "section", title: "Findings" }, bullets: true, lines: findings },
    { heading: { kind: "group", title: groups[0]! }, bullets: true, lines: sentences.slice(3, 4) },
    { heading: { kind: "group", title: groups[1]! }, bullets: true, lines: sentences.slice(4, 5) },
    { heading: { kind: "section", title: "Open questions" }, bullets: true, lines: ["Did any president tie the tariff to railroad rates?"] },
  ];
  return { brief: renderBrief(report), groups, findings };
}

test("a model's report renders its ## sections, **group** headings, bullets and [n] links to sources", async ({ page }) => {
  const account = await signedIn(page, base(), "brief-format");
  const job = await finishedJob(base(), account, { question: "How did presidents describe tariffs in the 19th century?", mode: "standard" });
  expect(job.status).toBe("succeeded");
  const { brief, groups, findings } = modelReport(job);

  // The job page reads the job once; its event stream is held (never answers), so the page shows this read.
  await page.route(`**/api/playground/research/${job.id}/events`, () => {});
  await page.route(`**/api/playground/research/${job.id}`, async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), brief } });
  });
  await page.goto(`${base()}/jobs/${job.id}`);

  const shown = page.getByRole("region", { name: "Brief" });
  await expect(shown.getByRole("heading", { level: 3 })).toHaveText(["Findings", "Open questions"]);
  await expect(shown.getByRole("heading", { level: 4 })).toHaveText(groups);
  // No Markdown is left as text: no "##", no "**", no "- " bullets, no bare [n].
  await expect(shown).not.toContainText("##");
  await expect(shown).not.toContainText("**");
  await expect(shown).not.toContainText(/\[\d+\]/);
  const lists = shown.getByRole("list");
  await expect(lists).toHaveCount(groups.length + 2);
  await expect(lists.first().getByRole("listitem")).toHaveCount(findings.length);
  await expect(lists.last().getByRole("listitem")).toHaveText(["Did any president tie the tariff to railroad rates?"]);

  // A marker is a link to its source: it selects the source and shows the passages the brief rests on.
  const marker = shown.getByRole("button", { name: /^Source 1: / }).first();
  await marker.click();
  await expect(page.locator("#source-1")).toHaveAttribute("aria-current", "true");
  await expect(page.getByRole("list", { name: "Passages of source 1" }).getByRole("listitem").first()).toBeVisible();
  await page.screenshot({ path: "test-results/screens/brief-format-report.png", fullPage: true });
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
