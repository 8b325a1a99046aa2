import { expect, test } from "@playwright/test";
import { signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

/**
 * What research searches is said where a newcomer looks (issue 38): the overview and the
 * playground name the local corpus and what it holds, and suggest questions it answers (each
 * checked against the seeded corpus by test/e2e/search-source.e2e.test.ts); a suggestion fills
 * the question.
 */
test("the overview and the playground say what research searches and suggest questions that get an answer", async ({ page }) => {
  await signedIn(page, base(), "search-source");
  await page.goto(`${base()}/`);
  const onOverview = page.getByRole("region", { name: "What research searches" });
  await expect(onOverview).toContainText(/local document corpus, not the web: US State of the Union addresses, 1790–2021 \(public domain\), [\d,]+ documents/);
  await page.screenshot({ path: "test-results/screens/search-source-overview.png", fullPage: true });
  // A suggestion on the overview opens the playground with it.
  await onOverview.getByRole("link", { name: "What did presidents say about the Panama Canal?" }).click();
  await expect(page.getByRole("heading", { name: "Playground" })).toBeVisible();
  await expect(page.getByLabel("Question")).toHaveValue("What did presidents say about the Panama Canal?");

  await page.goto(`${base()}/playground`);
  // The empty question's placeholder is itself a question the corpus answers.
  await expect(page.getByLabel("Question")).toHaveAttribute("placeholder", "What did presidents say about the Panama Canal?");
  const onPlayground = page.getByRole("region", { name: "What research searches" });
  await onPlayground.getByRole("button", { name: "What did Lyndon Johnson say about the war on poverty?" }).click();
  await expect(page.getByLabel("Question")).toHaveValue("What did Lyndon Johnson say about the war on poverty?");
  await page.screenshot({ path: "test-results/screens/search-source-playground.png", fullPage: true });
  await page.getByRole("button", { name: "Run research" }).click();
  const answer = page.getByRole("region", { name: "Short answer" });
  await expect(answer).toContainText("Lyndon B Johnson addressed the war on poverty");
  await expect(answer.getByText(/confidence$/)).toBeVisible();
});
