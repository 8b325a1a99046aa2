import { expect, test } from "@playwright/test";
import { signedIn } from "./session";

const base = () => process.env.DASHBOARD_BASE_URL!;

/** A typed output no source supports: the job fails on it (refunded). */
const SCHEMA = '{"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}';

test("a job that failed on its typed output shows its error once, as a sentence", async ({ page }) => {
  await signedIn(page, base(), "typed-failure");
  await page.goto(`${base()}/playground`);
  await page.getByLabel("Question").fill("What did presidents say about the Panama Canal?");
  await page.getByLabel("Mode").selectOption("lite");
  await page.getByText("Sources and typed output").click();
  await page.getByLabel("JSON Schema of the typed output (optional)").fill(SCHEMA);
  await page.getByRole("button", { name: "Run research" }).click();
  await expect(page.getByRole("region", { name: "Result" }).getByRole("definition").first()).toHaveText("failed");
  // Once (the stream's error event no longer adds a second copy), with its full stop.
  await expect(page.getByRole("alert")).toHaveText(["Typed output: no source supports the required field(s) code. Nothing was charged."]);
  await expect(page.getByText("no source supports the required field(s) code")).toHaveCount(1);
  // A failed job has no short answer: no "the sources do not answer" above a brief that does.
  await expect(page.getByRole("region", { name: "Short answer" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screens/playground-typed-failure.png", fullPage: true });
});
