import { expect, test } from "@playwright/test";

const base = () => process.env.DASHBOARD_BASE_URL!;

/** A saved web page that states its date and author (issue 42, item 6). */
const PAGE = `<!doctype html><html lang="en"><head><title>Otters use rocks as tools</title>
<meta property="article:published_time" content="2023-11-20"><meta name="author" content="Ada Kelp"></head>
<body><article><h1>Otters use rocks as tools</h1>
<p>Sea otters in Monterey Bay float on their backs and use flat rocks as anvils to crack open sea urchins and clams.</p>
<p>Each otter keeps a favourite rock in a loose pouch of skin under its forearm between dives, researchers found during the spring survey.</p>
</article></body></html>`;

test("a source's author and date are shown beside it in the brief's sources", async ({ page }) => {
  await page.goto(`${base()}/signup`);
  await page.getByLabel("Email").fill(`source-metadata-${Date.now()}@example.com`);
  await page.getByLabel("Password").fill("source metadata password");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();

  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Collections" }).click();
  // The list is loaded (the form is ready) before anything is typed.
  await expect(page.getByText("No collections yet")).toBeVisible();
  await page.getByLabel("Collection name").fill("Saved pages");
  await page.getByRole("button", { name: "Create collection" }).click();
  await page.getByRole("link", { name: "Saved pages" }).click();
  await page.getByLabel("Files to add").setInputFiles({ name: "otters.html", mimeType: "text/html", buffer: Buffer.from(PAGE) });
  await page.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("status")).toContainText("Added 1 document: Otters use rocks as tools");

  await page.getByRole("link", { name: "Research this collection" }).click();
  await expect(page.getByRole("checkbox", { name: "Saved pages", exact: true })).toBeChecked();
  await page.getByLabel("Question").fill("How do sea otters open sea urchins?");
  await page.getByLabel("Mode").selectOption("lite");
  await page.getByRole("button", { name: "Run research" }).click();
  const sources = page.getByRole("region", { name: "Sources" });
  await expect(sources).toContainText("Otters use rocks as tools", { timeout: 30_000 });
  const source = sources.getByRole("listitem").filter({ hasText: "Otters use rocks as tools" }).first();
  await expect(source).toContainText("by Ada Kelp, 20 November 2023");
  await expect(source.locator("time")).toHaveAttribute("datetime", "2023-11-20");
  await page.screenshot({ path: "test-results/screens/source-metadata.png", fullPage: true });
});
