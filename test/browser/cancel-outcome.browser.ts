import { expect, test } from "@playwright/test";
import { finishedJob, signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

/**
 * A cancel that arrives after the job ended says so where Cancel was clicked (issue 38). The race
 * is set up by state, never by timing: the job is finished first through the API, then the page
 * is kept from learning it (its event stream held, and on the job page its status read as running),
 * so Cancel is on screen and the real DELETE reaches a finished job.
 */
test("Cancel on a job that had already finished says it was not cancelled and what it was charged", async ({ page }) => {
  const account = await signedIn(page, base(), "cancel-late");
  const job = await finishedJob(base(), account, { question: "What did presidents say about the Panama Canal?", mode: "lite" });
  expect(job).toMatchObject({ status: "succeeded", credits_charged: 15 });
  const tooLate = "The job had already succeeded when the cancel arrived: it was charged 15 credits ($0.15). Nothing was changed.";
  // The event stream never answers: to the page the job is still running.
  await page.route(`**/api/playground/research/${job.id}/events`, () => {});

  await page.goto(`${base()}/playground?job=${job.id}&mode=lite`);
  await page.getByRole("button", { name: "Cancel the job" }).click();
  const outcome = page.getByRole("status", { name: "Cancel outcome" });
  await expect(outcome).toHaveText(`Not cancelled: ${tooLate}`);
  // The finished job is shown at once, from the cancel's answer.
  await expect(page.getByRole("region", { name: "Result" }).getByRole("definition").first()).toHaveText("succeeded");
  await expect(page.getByRole("button", { name: "Cancel the job" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/cancel-too-late-playground.png", fullPage: true });

  // The job page: its read says running (as it would have a moment before), so it offers Cancel.
  await page.route(`**/api/playground/research/${job.id}`, async (route) => {
    if (route.request().method() !== "GET") return route.continue(); // the cancel itself goes through
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), status: "running", completed_at: null } });
  });
  await page.goto(`${base()}/jobs/${job.id}`);
  await page.getByRole("button", { name: "Cancel the job" }).click();
  await expect(page.getByRole("status", { name: "Cancel outcome" })).toHaveText(`Not cancelled: ${tooLate}`);
  await expect(page.getByRole("region", { name: "Result" }).getByRole("definition").first()).toHaveText("succeeded");
  await page.screenshot({ path: "test-results/screens/cancel-too-late-job-page.png", fullPage: true });
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
