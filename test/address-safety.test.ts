import { describe, expect, it } from "vitest";
import { hostProblem, isLoopbackHost } from "../src/lib/address-safety";
import { fetchableUrl } from "../src/research/providers/reader/fetchable-url";
import { webhookUrlProblem } from "../src/webhooks/destination";

const host = (raw: string) => new URL(raw).hostname;

describe("one address-safety rule for webhooks and the page reader", () => {
  // Every spelling the URL parser accepts for a forbidden host, and public hosts that look alike.
  const refused: [string, RegExp][] = [
    ["https://localhost./x", /loopback/],
    ["https://metadata.google.internal./x", /metadata/],
    ["https://db.internal/x", /internal/],
    ["https://0x7f000001/", /loopback/], // hex
    ["https://017700000001/", /loopback/], // octal
    ["https://2130706433/", /loopback/], // decimal
    ["https://127.1/", /loopback/], // short form
    ["https://0x0a.0.0.1/", /private/],
    ["https://10.1.2.3./", /private/],
    ["https://169.254.169.254/latest", /metadata/],
    ["https://[::1]/", /loopback/],
    ["https://[::127.0.0.1]/", /loopback/], // IPv4-compatible
    ["https://[::ffff:127.0.0.1]/", /loopback/], // IPv4-mapped
    ["https://[::ffff:10.0.0.1]/", /private/],
    ["https://[::ffff:0:7f00:1]/", /loopback/], // IPv4-translated (issue 39)
    ["https://[::ffff:0:10.0.0.1]/", /private/], // IPv4-translated, dotted
    ["https://[64:ff9b::a9fe:a9fe]/", /metadata/], // NAT64 of 169.254.169.254
    ["https://[64:ff9b:1::1]/", /NAT64/],
    ["https://[2002:c0a8:101::1]/", /private/], // 6to4 of 192.168.1.1
    ["https://[2001:0:4136:e378::1]/", /Teredo/],
    ["https://[fd00::1]/", /private/],
    ["https://[fe80::1]/", /link-local/],
    ["https://[ff02::1]/", /multicast/],
    ["https://[::]/", /unspecified/],
    ["https://ｌｏｃａｌｈｏｓｔ/", /loopback/], // IDN full-width letters fold to "localhost"
  ];
  it.each(refused)("refuses %s", (raw, reason) => {
    expect(hostProblem(host(raw))).toMatch(reason);
    expect(webhookUrlProblem(raw, "production")).toMatch(/must not point at/);
    expect(fetchableUrl(raw, false)).toBeNull();
  });

  it.each([
    "https://fcc.gov/",
    "https://fdic.gov/",
    "https://fe80.example.com/",
    "https://[2606:4700::1111]/",
    "https://[::ffff:8.8.8.8]/",
    "https://[64:ff9b::8.8.8.8]/",
    "https://[::ffff:0:8.8.8.8]/",
    "https://bücher.example/",
    "https://8.8.8.8/",
  ])("accepts the public host %s", (raw) => {
    expect(hostProblem(host(raw))).toBeNull();
    expect(webhookUrlProblem(raw, "production")).toBeNull();
    expect(fetchableUrl(raw, false)?.toString()).toBe(new URL(raw).toString());
  });

  it("refuses credentials in the URL, and loopback outside development only", () => {
    expect(webhookUrlProblem("https://user@hooks.example.com/", "production")).toMatch(/credentials/);
    expect(fetchableUrl("https://user:pw@example.com/", false)).toBeNull();
    expect(isLoopbackHost(host("http://localhost./hook"))).toBe(true);
    expect(webhookUrlProblem("http://localhost./hook", "development")).toBeNull();
    expect(webhookUrlProblem("http://localhost./hook", "production")).toMatch(/https/);
    expect(webhookUrlProblem("https://localhost./hook", "production")).toMatch(/loopback/);
    expect(fetchableUrl("http://127.0.0.1:8080/page", true)?.hostname).toBe("127.0.0.1");
  });
});
