import { expect, test } from "@playwright/test";
import { finishedJob, signedInAs } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

/** A model's write as the write stage reports it (issue 40): two claims kept, one of them revised, one dropped; the answer dropped. */
const REPORT = {
  claims: [
    { text: "Cleveland asked Congress to reduce tariff charges.", kept: true, revised: false, reason: null },
    { text: "Harrison signed the McKinley Tariff in 1890.", kept: true, revised: true, reason: "1890 is in none of its quotes" },
    { text: "Cleveland vetoed the tariff bill of 1894.", kept: false, revised: true, reason: "withdrawn by the model" },
  ],
  answer: { text: "Lower tariffs", kept: false, reason: "Lower is in none of its quotes" },
  calls: 2,
};

test("admin: a job's page says what was kept of a model's writing, and that an offline job has no write report", async ({ page }) => {
  const admin = await signedInAs(page, base(), "admin@example.com", "browser admin password");
  const job = await finishedJob(base(), admin, { question: "How did presidents describe tariffs in the 19th century?", mode: "lite" });
  expect(job.status).toBe("succeeded");

  // Written offline, the job has none.
  await page.goto(`${base()}/admin/jobs/${job.id}`);
  const writing = page.getByRole("region", { name: "Model writing" });
  await expect(writing).toContainText("No model write report: written offline, or the job did not succeed.");

  // As the admin API gives it for a job a model wrote (the write stage fills it in).
  await page.route(`**/api/admin/jobs/${job.id}`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...(await response.json()), write_report: REPORT } });
  });
  await page.reload();
  await expect(writing).toContainText("2 of 3 claims kept (1 after revision), in 2 calls. Its short answer was dropped: Lower is in none of its quotes.");
  await expect(writing.getByRole("list", { name: "Dropped claims" }).getByRole("listitem")).toHaveText([
    "Cleveland vetoed the tariff bill of 1894. (withdrawn by the model)",
  ]);
  await page.screenshot({ path: "test-results/screens/admin-write-report.png", fullPage: true });
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
