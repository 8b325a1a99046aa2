import { describe, expect, it } from "vitest";
import { charsetOf, decodePage, metaCharset } from "../../src/research/providers/reader/charset";
import { concat, latin1 } from "./bytes";

/** Issue 42, item 5: a page is decoded in the charset it declares (header, BOM, <meta>), else UTF-8 or windows-1252. */

/** "“Café” – naïve" in windows-1252. */
const CP1252 = Uint8Array.from([0x93, 0x43, 0x61, 0x66, 0xe9, 0x94, 0x20, 0x96, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65]);
/** "日本語の記事" in Shift_JIS. */
const SJIS = Uint8Array.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea, 0x82, 0xcc, 0x8b, 0x4c, 0x8e, 0x96]);

describe("decodePage", () => {
  it("honours the Content-Type header's charset", () => {
    expect(decodePage(CP1252, "text/html; charset=windows-1252", true)).toEqual({ text: "“Café” – naïve", encoding: "windows-1252" });
    expect(decodePage(SJIS, 'text/html; charset="Shift_JIS"', true)).toEqual({ text: "日本語の記事", encoding: "shift_jis" });
  });

  it("reads <meta charset> and <meta http-equiv> in the first 1024 bytes of HTML (not of plain text)", () => {
    const page = concat(latin1('<html><head><meta charset="windows-1252"><title>t</title></head><body><p>'), CP1252);
    expect(decodePage(page, "text/html", true).text).toContain("“Café” – naïve");
    const httpEquiv = concat(latin1('<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"></head><body>'), SJIS);
    expect(decodePage(httpEquiv, "text/html", true)).toMatchObject({ encoding: "shift_jis" });
    expect(decodePage(httpEquiv, "text/html", true).text).toContain("日本語の記事");
    // Past the prescan's 1024 bytes a declaration is not seen: not valid UTF-8, so windows-1252.
    const late = concat(latin1(`<html><head>${" ".repeat(1100)}<meta charset="shift_jis"></head>`), SJIS);
    expect(decodePage(late, "text/html", true).encoding).toBe("windows-1252");
  });

  it("a byte order mark wins over any declaration", () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Array.from("Hé", (c) => [c.charCodeAt(0), 0]).flat()]);
    expect(decodePage(utf16, "text/html; charset=windows-1252", true)).toEqual({ text: "Hé", encoding: "utf-16le" });
    const utf8 = concat(Uint8Array.from([0xef, 0xbb, 0xbf]), new TextEncoder().encode("Zoë"));
    expect(decodePage(utf8, "text/plain; charset=iso-8859-1", false)).toEqual({ text: "Zoë", encoding: "utf-8" });
  });

  it("nothing declared: UTF-8 when valid, else windows-1252; an unknown label counts as nothing", () => {
    expect(decodePage(new TextEncoder().encode("Zoë 日本"), null, true)).toEqual({ text: "Zoë 日本", encoding: "utf-8" });
    expect(decodePage(CP1252, "text/html", true)).toEqual({ text: "“Café” – naïve", encoding: "windows-1252" });
    expect(decodePage(CP1252, "text/html; charset=utf-7", true).encoding).toBe("windows-1252");
  });

  it("a <meta> that says UTF-16 means UTF-8 (the declaration was read as ASCII)", () => {
    const page = concat(latin1('<meta charset="utf-16">'), new TextEncoder().encode("Zoë"));
    expect(decodePage(page, "text/html", true)).toEqual({ text: '<meta charset="utf-16">Zoë', encoding: "utf-8" });
  });
});

describe("charsetOf / metaCharset", () => {
  it("parse the declarations", () => {
    expect(charsetOf("text/html;charset=UTF-8")).toBe("UTF-8");
    expect(charsetOf("text/html")).toBeUndefined();
    expect(metaCharset(latin1("<!-- <meta charset=koi8-r> --><META CHARSET=euc-jp>"))).toBe("euc-jp");
    expect(metaCharset(latin1("<meta content='text/html; charset=gb2312' http-equiv='content-type'>"))).toBe("gb2312");
  });
});
