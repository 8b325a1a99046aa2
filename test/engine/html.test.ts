import { describe, expect, it } from "vitest";
import { extractHtml } from "../../src/research/providers/reader/html";
import { parseRobots, robotsAllows } from "../../src/research/providers/reader/robots";
import { fetchableUrl } from "../../src/research/providers/reader/fetchable-url";

const NEWS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Tariff of 1828 passes Congress &amp; divides the nation | The Daily Record</title>
  <meta property="og:title" content="Tariff of 1828 passes Congress">
  <style>.banner { color: red } body { font-family: serif }</style>
  <script>window.dataLayer = []; function track() { return "Tracking sentence that must not appear."; }</script>
  <script type="application/ld+json">{"@type": "NewsArticle", "headline": "JSON-LD headline that must not appear"}</script>
</head>
<body>
  <div id="cookie-banner" class="cookie-consent">
    <p>We use cookies to improve your experience. By continuing you accept our cookie policy.</p>
    <button>Accept all</button>
  </div>
  <header class="site-header">
    <a href="/">The Daily Record</a>
    <nav><ul><li><a href="/politics">Politics</a></li><li><a href="/economy">Economy</a></li></ul></nav>
  </header>
  <main>
    <article>
      <h1>Tariff of 1828 passes Congress</h1>
      <p class="byline">By A. Reporter</p>
      <p>The Tariff of 1828 was passed by Congress on May 19, 1828, raising duties on imported goods.</p>
      <p>Opponents in the South called it the <em>Tariff of Abominations</em>, arguing it favoured northern industry.</p>
      <div class="share-buttons social"><a href="#">Share on social media to tell your friends about this story</a></div>
      <aside class="related"><h3>Related</h3><p>Ten facts about the weather you never knew about today.</p></aside>
      <p>Vice President John C. Calhoun anonymously wrote the South Carolina Exposition and Protest against it.</p>
    </article>
  </main>
  <div class="newsletter"><p>Subscribe to our newsletter for the best stories every morning in your inbox.</p></div>
  <footer><p>Copyright 2026 The Daily Record. All rights reserved worldwide by the owners.</p></footer>
  <noscript><p>Please enable JavaScript to see all the comments on this page right now.</p></noscript>
  <script>console.log("late script sentence that must not appear")</script>
</body>
</html>`;

describe("HTML extraction", () => {
  it("keeps the title and article text and drops scripts, styles, nav, header, footer, asides and cookie banners", async () => {
    const page = await extractHtml(NEWS_PAGE);
    expect(page.title).toBe("Tariff of 1828 passes Congress & divides the nation | The Daily Record");
    expect(page.text).toContain("The Tariff of 1828 was passed by Congress on May 19, 1828, raising duties on imported goods.");
    expect(page.text).toContain("Opponents in the South called it the Tariff of Abominations, arguing it favoured northern industry.");
    expect(page.text).toContain("John C. Calhoun anonymously wrote");
    for (const boilerplate of [
      "cookies",
      "Accept all",
      "Politics",
      "Tracking sentence",
      "JSON-LD",
      "Share on social",
      "Ten facts",
      "newsletter",
      "Copyright",
      "enable JavaScript",
      "late script",
      "font-family",
    ]) {
      expect(page.text).not.toContain(boilerplate);
    }
    // Paragraphs stay separate lines, so sentences do not run together.
    expect(page.text.split("\n").length).toBeGreaterThanOrEqual(3);
  });

  it("decodes entities and falls back to og:title", async () => {
    const page = await extractHtml(
      `<html><head><meta property="og:title" content="Fallback title"></head><body><p>Caf&eacute; is not decoded but &quot;quotes&quot; &amp; numbers &#8212; are, in this sentence.</p></body></html>`,
    );
    expect(page.title).toBe("Fallback title");
    expect(page.text).toContain('"quotes" & numbers — are');
  });

  it("reads the markup pages really have: unclosed elements, '>' in attributes, no <body> tag", async () => {
    // A <nav> left open is closed by its parent's end tag, not left dropping the rest of the page.
    const unclosed = await extractHtml(
      `<body><div class="top"><nav><a href="/">Home</a></div><p>The article starts after a menu nobody closed properly.</p></body>`,
    );
    expect(unclosed.text).toBe("The article starts after a menu nobody closed properly.");
    const quoted = await extractHtml(`<body><p title="a > b" data-x='c > d'>A paragraph whose attributes hold brackets stays whole.</p></body>`);
    expect(quoted.text).toBe("A paragraph whose attributes hold brackets stays whole.");
    const bodiless = await extractHtml(`<title>Bare</title><p>A page without a body tag is still read as a page.</p><script>nope()</script>`);
    expect(bodiless).toEqual({ title: "Bare", text: "A page without a body tag is still read as a page." });
  });

  it("survives void and self-closing elements inside dropped ones", async () => {
    const page = await extractHtml(`<body><nav><img src="x.png"><br/><input type="text"></nav><p>The main text of this page is this one sentence.</p></body>`);
    expect(page.text).toBe("The main text of this page is this one sentence.");
  });
});

describe("robots.txt", () => {
  const robots = `# example
User-agent: *
Disallow: /private/
Disallow: /*.pdf$
Allow: /private/public-report

User-agent: DeepResearchBot
Disallow: /no-bots/

User-agent: OtherBot
Disallow: /`;

  it("uses the group that names our agent, else the * group", () => {
    const ours = parseRobots(robots, "DeepResearchBot");
    expect(robotsAllows(ours, "/no-bots/page")).toBe(false);
    expect(robotsAllows(ours, "/private/page")).toBe(true);
    const anyone = parseRobots(robots, "SomeCrawler");
    expect(robotsAllows(anyone, "/private/page")).toBe(false);
    expect(robotsAllows(anyone, "/private/public-report")).toBe(true);
    expect(robotsAllows(anyone, "/files/report.pdf")).toBe(false);
    expect(robotsAllows(anyone, "/files/report.pdf?x=1")).toBe(true);
    expect(robotsAllows(anyone, "/")).toBe(true);
  });

  it("allows everything when there are no rules", () => {
    expect(robotsAllows(parseRobots("", "DeepResearchBot"), "/anything")).toBe(true);
  });
});

describe("fetchable URLs", () => {
  it("refuses private, link-local, metadata and credentialed URLs, and loopback outside development", () => {
    for (const url of [
      "http://10.0.0.1/",
      "http://192.168.1.1/",
      "http://169.254.169.254/latest",
      "http://user:pass@example.com/",
      "ftp://example.com/",
      "http://[::1]/",
      "http://127.0.0.1:8080/",
    ]) {
      expect(fetchableUrl(url, false), url).toBeNull();
    }
    expect(fetchableUrl("http://127.0.0.1:8080/page", true)?.toString()).toBe("http://127.0.0.1:8080/page");
    expect(fetchableUrl("https://example.com/a", false)?.hostname).toBe("example.com");
  });
});
