import { describe, expect, it } from "vitest";
import { DOM_BUDGET_BYTES, domCostEstimate, MAX_DOM_ELEMENTS } from "../../src/research/providers/reader/dom-budget";
import { extractPage, extractPageWithPath } from "../../src/research/providers/reader/extract";
import { extractHtml } from "../../src/research/providers/reader/html";
import { isoDate } from "../../src/research/providers/reader/metadata";

/**
 * The page reader's one entry, extractPage (issue 42): Readability on linkedom, the hand-written
 * guard for pages past the DOM's memory budget and pages where Readability finds too little, and
 * the guard's own failure shapes fixed. Each fixture is checked through extractPage and, where the
 * shape was the guard's, through the guard alone too (it reads every page past the budget).
 */

const URL = "https://news.example.com/2024/03/story.html";

const PARAGRAPHS = [
  "The county council voted on Tuesday to rebuild the old harbour wall before the winter storms arrive.",
  "Engineers said the wall, built in 1874, had lost a third of its stones to the sea since the last repair.",
  "The work will cost 4.2 million pounds and is due to start in April, the council's chief engineer said.",
  "Fishermen who moor inside the harbour welcomed the decision but asked for the work to be done in stages.",
  "Their association said a full closure of the harbour during the spring season would cost its members dearly.",
  "The council replied that boats would be moved to the north quay while the southern half of the wall is rebuilt.",
];
const ARTICLE = PARAGRAPHS.map((paragraph) => `<p>${paragraph}</p>`).join("\n");

const page = (body: string, head = "<title>Harbour wall to be rebuilt</title>") =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`;

const NAV = `<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li></ul></nav>`;

function expectArticle(text: string) {
  for (const paragraph of PARAGRAPHS) expect(text).toContain(paragraph);
}

describe("extractPage: the article, whatever wraps it", () => {
  it("keeps an article inside classes with 'ad' or 'header' inside a hyphenated name", () => {
    for (const wrapper of ['<div class="Page-ad-margins">', '<section class="non-ad-column-l">', '<div class="header-style-header-2">']) {
      const html = page(`${NAV}${wrapper}<h1>Harbour wall to be rebuilt</h1>${ARTICLE}${wrapper.startsWith("<section") ? "</section>" : "</div>"}`);
      expectArticle(extractPage(html, URL).text);
      expectArticle(extractHtml(html).text);
    }
  });

  it("still drops real ad slots and banners by their class words", () => {
    const html = page(
      `<div class="ad-slot"><p>Buy the new phone today and save forty percent on every single accessory.</p></div>` +
        `<div class="cookie-banner"><p>We use cookies to improve your experience on this site, accept them all.</p></div><article>${ARTICLE}</article>`,
    );
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) {
      expectArticle(text);
      expect(text).not.toContain("new phone");
      expect(text).not.toContain("cookies");
    }
  });

  it("keeps an article inside a <form> wrapping the whole page (ASP.NET)", () => {
    const html = page(
      `<form method="post" action="./story.aspx" id="aspnetForm"><input type="hidden" name="__VIEWSTATE" value="abc">${NAV}` +
        `<div id="main"><h1>Harbour wall to be rebuilt</h1>${ARTICLE}</div>` +
        `<div class="newsletter"><p>Sign up for our newsletter and get the headlines in your inbox every morning.</p></div></form>`,
    );
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) {
      expectArticle(text);
      expect(text).not.toContain("Sign up");
    }
  });

  it("keeps a page's article once when the markup carries it three times", () => {
    const copy = (layout: string) => `<div class="${layout}"><h1>Harbour wall to be rebuilt</h1>${ARTICLE}</div>`;
    const html = page(`${copy("desktop")}${copy("tablet")}${copy("mobile")}`);
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) {
      expectArticle(text);
      for (const paragraph of PARAGRAPHS) expect(text.split(paragraph).length - 1).toBe(1);
    }
  });

  it("drops a list of teasers for other stories", () => {
    const teasers = [
      "Council approves new cycle lanes along the whole of the seafront road",
      "Lifeboat crew rescues two walkers cut off by the tide near the old lighthouse",
      "Primary school celebrates its hundredth year with a street party for the town",
    ]
      .map((headline) => `<li class="story-card"><a href="/other"><h3>${headline}</h3></a><span>2 hours ago</span></li>`)
      .join("");
    const html = page(
      `<article><h1>Harbour wall to be rebuilt</h1>${ARTICLE}</article><div class="more-stories"><h2>More stories</h2><ul>${teasers}</ul></div>`,
    );
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) {
      expectArticle(text);
      expect(text).not.toContain("cycle lanes");
      expect(text).not.toContain("Lifeboat crew");
    }
    // Not in a class that says so: the guard still drops lines that are all link text.
    const bare = page(`<article>${ARTICLE}</article><ul>${teasers}</ul>`);
    expect(extractHtml(bare).text).not.toContain("Lifeboat crew");
  });
});

describe("extractPage: every script, and tables", () => {
  it("reads a Japanese article (no spaces between words, 。 as the stop)", () => {
    const sentences = [
      "東京都は火曜日、老朽化した港の防波堤を冬の嵐が来る前に再建すると発表した。",
      "技術者によると、一八七四年に造られた防波堤は前回の修理以来、石の三分の一を失っている。",
      "工事費は四億二千万円で、四月に着工する予定だと都の主任技術者は述べた。",
      "港に船を係留する漁業者はこの決定を歓迎したが、工事を段階的に進めるよう求めた。",
    ];
    const html = `<html lang="ja"><head><title>防波堤を再建へ</title></head><body>${NAV}<article><h1>防波堤を再建へ</h1>${sentences.map((s) => `<p>${s}</p>`).join("")}</article></body></html>`;
    const extracted = extractPage(html, URL);
    for (const sentence of sentences) {
      expect(extracted.text).toContain(sentence);
      expect(extractHtml(html).text).toContain(sentence);
    }
    expect(extracted.lang).toBe("ja");
    expect(extracted.text).not.toContain("Sport");
  });

  it("reads a Chinese article", () => {
    const sentences = [
      "市议会周二投票决定在冬季风暴来临之前重建旧港口的防波堤。",
      "工程师表示，这座建于一八七四年的防波堤自上次维修以来已有三分之一的石块被海水冲走。",
      "这项工程将耗资四百二十万英镑，预计于四月份开工，市议会总工程师说道。",
    ];
    const html = `<html lang="zh-CN"><head><title>港口防波堤将重建</title></head><body>${NAV}<div class="content">${sentences.map((s) => `<p>${s}</p>`).join("")}</div></body></html>`;
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) for (const sentence of sentences) expect(text).toContain(sentence);
    expect(extractPage(html, URL).lang).toBe("zh-CN");
  });

  it("reads a Thai article (spaces between sentences only, no stops)", () => {
    const sentences = [
      "สภาเทศบาลลงมติเมื่อวันอังคารให้สร้างกำแพงท่าเรือเก่าขึ้นใหม่ก่อนที่พายุฤดูหนาวจะมาถึง",
      "วิศวกรกล่าวว่ากำแพงที่สร้างขึ้นในปี 1874 สูญเสียหินไปหนึ่งในสามนับตั้งแต่การซ่อมแซมครั้งล่าสุด",
      "ชาวประมงที่จอดเรือในท่าเรือยินดีกับการตัดสินใจนี้แต่ขอให้ทำงานเป็นระยะ",
    ];
    const html = `<html lang="th"><head><title>กำแพงท่าเรือ</title></head><body>${NAV}<article>${sentences.map((s) => `<p>${s}</p>`).join("")}</article></body></html>`;
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) for (const sentence of sentences) expect(text).toContain(sentence);
  });

  it("reads right-to-left pages (Arabic and Hebrew) in their logical order", () => {
    const arabic = [
      "صوّت مجلس المدينة يوم الثلاثاء على إعادة بناء جدار الميناء القديم قبل وصول عواصف الشتاء.",
      "وقال المهندسون إن الجدار الذي بني عام 1874 فقد ثلث حجارته لصالح البحر منذ آخر إصلاح له.",
      "هل سيبدأ العمل في أبريل؟",
    ];
    const html = `<html lang="ar" dir="rtl"><head><title>إعادة بناء جدار الميناء</title><meta property="og:site_name" content="أخبار الساحل"></head><body>${NAV}<article>${arabic.map((s) => `<p>${s}</p>`).join("")}</article></body></html>`;
    const extracted = extractPage(html, URL);
    for (const sentence of arabic) {
      expect(extracted.text).toContain(sentence);
      expect(extractHtml(html).text).toContain(sentence);
    }
    expect(extracted).toMatchObject({ title: "إعادة بناء جدار الميناء", lang: "ar", site_name: "أخبار الساحل" });

    const hebrew = [
      "מועצת העיר הצביעה ביום שלישי על בנייה מחדש של חומת הנמל הישנה לפני סופות החורף.",
      "המהנדסים אמרו שהחומה, שנבנתה בשנת 1874, איבדה שליש מאבניה לים מאז התיקון האחרון.",
    ];
    const he = `<html lang="he" dir="rtl"><head><title>חומת הנמל</title></head><body><article>${hebrew.map((s) => `<p>${s}</p>`).join("")}</article></body></html>`;
    for (const text of [extractPage(he, URL).text, extractHtml(he).text]) expect(text).toBe(hebrew.join("\n\n"));
  });

  it("keeps a results table as rows of text, cells separated", () => {
    const rows = [
      ["Team", "Played", "Won", "Points"],
      ["Harbour Rovers", "10", "8", "25"],
      ["Cliff Town", "10", "6", "19"],
      ["Lighthouse United", "10", "3", "11"],
    ];
    const table = `<table><thead><tr>${rows[0]!.map((cell) => `<th>${cell}</th>`).join("")}</tr></thead><tbody>${rows
      .slice(1)
      .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`)
      .join("")}</tbody></table>`;
    const html = page(`${NAV}<article><h1>League table after ten rounds</h1><p>${PARAGRAPHS[0]}</p>${table}<p>${PARAGRAPHS[1]}</p></article>`);
    const expected = rows.map((row) => row.join(" | ")).join("\n");
    for (const text of [extractPage(html, URL).text, extractHtml(html).text]) {
      expect(text).toContain(expected);
      expect(text).toContain(PARAGRAPHS[0]);
    }
  });
});

describe("extractPage: the text's form", () => {
  it("keeps a <pre> block's lines as they are (the guard too)", () => {
    const code = "$ hg clone https://example.com/repo\n$ cd repo\n  $ hg update -r 1";
    const html = page(`<article><p>${PARAGRAPHS[0]}</p><pre>${code}</pre><p>${PARAGRAPHS[1]}</p></article>`);
    for (const { text } of [extractPage(html, URL), extractHtml(html)]) expect(text).toContain(`${PARAGRAPHS[0]}\n\n${code}\n\n${PARAGRAPHS[1]}`);
  });

  it("separates paragraphs with blank lines and leaves no markup or entities", () => {
    const html = page(
      `<article><h1>Harbour wall</h1><p>Caf&eacute; owners &amp; fishermen said the wall&#8217;s repair &mdash; long awaited &mdash; was welcome news.</p><p>The council&nbsp;will meet <b>again</b> in <a href="/may">May</a> to agree the contractor for the works.</p></article>`,
    );
    for (const { text } of [extractPage(html, URL), extractHtml(html)]) {
      expect(text).toContain(
        "Café owners & fishermen said the wall’s repair — long awaited — was welcome news.\n\nThe council will meet again in May to agree the contractor for the works.",
      );
      expect(text).not.toMatch(/[<>]|&[a-z#0-9]+;/i);
    }
  });
});

describe("extractPage: within the DOM's memory budget", () => {
  it("reads a page whose markup would take the DOM past the budget with the guard, without parsing it", () => {
    const filler = "<span><i></i></span>".repeat(60_000); // 120,000 elements in 1.2 MB, the reader's cap is 2 MB
    const html = page(`${NAV}<article><h1>Harbour wall to be rebuilt</h1>${ARTICLE}</article><div hidden>${filler}</div>`);
    expect(domCostEstimate(html)).toBeGreaterThan(DOM_BUDGET_BYTES);
    const { page: extracted, path } = extractPageWithPath(html, URL);
    expect(path).toBe("guard:budget");
    expect(extracted.title).toBe("Harbour wall to be rebuilt");
    expect(extracted.text).toBe(PARAGRAPHS.join("\n\n"));
    expect(extracted.lang).toBe("en");
  });

  it("reads a page of more elements than Readability is given with the guard, whatever its memory estimate", () => {
    const html = page(`<article>${ARTICLE}</article><div hidden>${"<i></i>".repeat(MAX_DOM_ELEMENTS + 1000)}</div>`);
    expect(domCostEstimate(html)).toBeLessThan(DOM_BUDGET_BYTES);
    const { page: extracted, path } = extractPageWithPath(html, URL);
    expect(path).toBe("guard:budget");
    expect(extracted.text).toBe(PARAGRAPHS.join("\n\n"));
  });

  it("reads an ordinary article with Readability", () => {
    const html = page(
      `${NAV}<article><h1>Harbour wall to be rebuilt</h1>${ARTICLE}</article><footer><p>Copyright 2024 The Coast News, all rights reserved.</p></footer>`,
    );
    expect(domCostEstimate(html)).toBeLessThan(DOM_BUDGET_BYTES);
    const { page: extracted, path } = extractPageWithPath(html, URL);
    expect(path).toBe("readability");
    expect(extracted.text).toBe(PARAGRAPHS.join("\n\n"));
  });

  it("takes the guard's text when Readability finds too little", () => {
    // Lines too short for Readability's paragraphs, in a list the guard reads line by line.
    const html = page(
      `<ul>${PARAGRAPHS.slice(0, 2)
        .map((paragraph) => `<li>${paragraph}</li>`)
        .join("")}</ul>`,
    );
    const { page: extracted, path } = extractPageWithPath(html, URL);
    expect(path).toBe("guard:too-little");
    expect(extracted.text).toBe(PARAGRAPHS.slice(0, 2).join("\n\n"));
    // A one-paragraph page: Readability keeps the menu beside it, the guard does not.
    const short = extractPageWithPath(page(`<nav><a href="/">Home</a> <a href="/about">About</a></nav><p>${PARAGRAPHS[0]}</p>`), URL);
    expect(short).toMatchObject({ path: "guard:too-little", page: { text: PARAGRAPHS[0] } });
  });
});

describe("extractPage: the page's metadata", () => {
  it("reads the published date, author, site name and language from meta tags", () => {
    const html = page(
      ARTICLE,
      `<title>Harbour wall to be rebuilt</title><meta property="article:published_time" content="2024-03-05T14:30:00+01:00"><meta name="author" content="Jane Marsh"><meta property="og:site_name" content="The Coast News">`,
    );
    expect(extractPage(html, URL)).toMatchObject({
      title: "Harbour wall to be rebuilt",
      published_at: "2024-03-05T13:30:00Z",
      author: "Jane Marsh",
      site_name: "The Coast News",
      lang: "en",
    });
  });

  it("reads JSON-LD when the meta tags are missing, and a <time datetime> when that is too", () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle","datePublished":"2023-11-02","author":[{"@type":"Person","name":"Ravi Patel"}],"publisher":{"@type":"Organization","name":"Harbour Herald"}}]}</script>`;
    expect(extractPage(page(ARTICLE, `<title>T</title>${ld}`), URL)).toMatchObject({
      published_at: "2023-11-02",
      author: "Ravi Patel",
      site_name: "Harbour Herald",
    });
    const timed = extractPage(page(`<article><p>By Sam Reed</p><time datetime="2022-07-14T08:00:00Z">14 July 2022</time>${ARTICLE}</article>`), URL);
    expect(timed.published_at).toBe("2022-07-14T08:00:00Z");
  });

  it("leaves out what the page does not state, and dates that are not dates", () => {
    const bare = extractPage(`<html><body><article>${ARTICLE}</article></body></html>`, URL);
    expect(Object.keys(bare).sort()).toEqual(["text", "title"]);
    expect(isoDate("not a date")).toBeUndefined();
    expect(isoDate("2024-02-30")).toBeUndefined();
    expect(isoDate("20240305")).toBe("2024-03-05");
    expect(isoDate("Tue, 05 Mar 2024 14:30:00 GMT")).toBe("2024-03-05T14:30:00Z");
  });
});
