import { expect, type Page, test } from "@playwright/test";
import { apiCall, signedIn } from "./session";
import { DAM, ENGINEER, QUESTION } from "../fixtures/marigold-dam";

const base = () => process.env.DASHBOARD_BASE_URL!;

/**
 * The runs table once it shows `count` runs, none of them running, without a reload: the page
 * follows a running run (asking again at 2 s, then longer) until it settles.
 */
async function settledRuns(page: Page, question: string, count: number) {
  const table = page.getByRole("table", { name: `Runs of ${question}` });
  await expect(table.getByRole("row")).toHaveCount(count + 1, { timeout: 60_000 });
  await expect(table.getByText("running…")).toHaveCount(0, { timeout: 60_000 });
  return table;
}

test("monitors: create one, run it now, see each run and its diff, pause and resume, delete", async ({ page }) => {
  const account = await signedIn(page, base(), "monitors");
  await page.goto(`${base()}/monitors`);
  await expect(page.getByText("No monitors yet")).toBeVisible();

  // Created in the page's form: lite, every 2 days.
  const form = page.getByRole("form", { name: "Create a monitor" });
  await form.getByLabel("Question").fill("What did Lincoln say about emancipation?");
  await form.getByLabel("Mode").selectOption("lite");
  await form.getByLabel("Every").fill("2d");
  await form.getByRole("button", { name: "Create monitor" }).click();
  const card = page.getByRole("article", { name: "What did Lincoln say about emancipation?" });
  await expect(card).toContainText("lite, every 2d");
  await expect(card.getByText("No runs yet.")).toBeVisible();

  // Pause changes its status; Resume brings it back.
  await card.getByRole("button", { name: "Pause" }).click();
  await expect(card).toContainText("Paused (by you)");
  await expect(card.getByRole("button", { name: "Resume" })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/monitor-paused.png", fullPage: true });
  await card.getByRole("button", { name: "Resume" }).click();
  await expect(card).toContainText("Next run");
  await expect(card.getByRole("button", { name: "Pause" })).toBeVisible();

  // A monitor over a collection, chosen in the form, whose collection gains a page between two
  // runs, so the second run's diff has something to say.
  const collection = await apiCall(base(), account, "POST", "/api/collections", { name: "Dam archive" });
  await apiCall(base(), account, "POST", `/api/collections/${collection.id}/documents`, { documents: [DAM] });
  await page.reload();
  await form.getByLabel("Question").fill(QUESTION);
  await form.getByLabel("Mode").selectOption("standard");
  await form.getByLabel("Every").fill("1d");
  await form.getByRole("checkbox", { name: "Dam archive" }).check();
  await expect(form.getByRole("checkbox", { name: "Also search the default sources" })).not.toBeChecked();
  await page.screenshot({ path: "test-results/screens/monitor-create-collection.png", fullPage: true });
  await form.getByRole("button", { name: "Create monitor" }).click();
  const damCard = page.getByRole("article", { name: QUESTION });
  await expect(damCard).toContainText("standard, every 1d");
  await expect(damCard).toContainText("searches Dam archive.");
  // Run now: the run shows as running, and the page follows it until it settles, no reload.
  await damCard.getByRole("button", { name: "Run now" }).click();
  let runs = await settledRuns(page, QUESTION, 1);
  await expect(runs.getByRole("row").nth(1)).toContainText("baseline (first run)");
  await expect(runs.getByRole("row").nth(1)).toContainText("succeeded");

  await apiCall(base(), account, "POST", `/api/collections/${collection.id}/documents`, { documents: [ENGINEER] });
  await damCard.getByRole("button", { name: "Run now" }).click();
  runs = await settledRuns(page, QUESTION, 2);
  // Newest first: the second run, with what changed since the first.
  const latest = runs.getByRole("row").nth(1);
  await expect(latest).toContainText("(manual)");
  const diff = latest.getByRole("definition");
  await expect(latest.getByRole("term")).toContainText(["Sources added", "Answer", "Claims added"]);
  await expect(diff.first()).toContainText(`+ ${ENGINEER.title}`);
  await expect(diff.first()).toContainText(ENGINEER.url);
  await expect(latest).toContainText("Szeged");
  await expect(latest.getByRole("term").filter({ hasText: "Sources gone" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/monitor-runs.png", fullPage: true });

  // Each run's job opens on its page.
  const jobLink = latest.getByRole("link");
  const jobHref = await jobLink.getAttribute("href");
  await jobLink.click();
  await expect(page).toHaveURL(new RegExp(`${jobHref}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(QUESTION);
  await page.goBack();

  // Delete asks first, in the app's own dialog (Cancel focused): Cancel keeps the monitor, the
  // dialog's Delete removes it.
  await page.getByRole("article", { name: QUESTION }).getByRole("button", { name: "Delete" }).click();
  let asked = page.getByRole("dialog", { name: `Delete the monitor "${QUESTION}"?` });
  await expect(asked).toBeVisible();
  await expect(asked.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.screenshot({ path: "test-results/screens/monitor-delete-dialog.png" });
  await asked.getByRole("button", { name: "Cancel" }).click();
  await expect(asked).toHaveCount(0);
  await expect(page.getByRole("article", { name: QUESTION })).toBeVisible();
  await page.getByRole("article", { name: QUESTION }).getByRole("button", { name: "Delete" }).click();
  await asked.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("article", { name: QUESTION })).toHaveCount(0);
  await expect(card).toBeVisible();
  await card.getByRole("button", { name: "Delete" }).click();
  asked = page.getByRole("dialog", { name: 'Delete the monitor "What did Lincoln say about emancipation?"?' });
  await asked.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No monitors yet")).toBeVisible();
  await page.screenshot({ path: "test-results/screens/monitors-empty.png", fullPage: true });
});
