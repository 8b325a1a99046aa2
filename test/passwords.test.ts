import { describe, expect, it } from "vitest";
import { constantTimeEqual } from "../src/lib/crypto";
import { hashPassword, PASSWORD_ITERATIONS, verifyPassword } from "../src/services/passwords";

const B64URL = "[A-Za-z0-9_-]";

describe("password hashing", () => {
  it("stores the algorithm, the 100,000 iterations, a 16-byte salt and a 32-byte hash", async () => {
    expect(PASSWORD_ITERATIONS).toBe(100_000);
    const hash = await hashPassword("correct horse battery");
    expect(hash).toMatch(new RegExp(`^pbkdf2-sha256\\$100000\\$${B64URL}{22}\\$${B64URL}{43}$`));
  });

  it("salts every hash: the same password hashes differently each time", async () => {
    const a = await hashPassword("same password");
    const b = await hashPassword("same password");
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password", a)).toBe(true);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  it("verifies the right password and rejects others", async () => {
    const hash = await hashPassword("correct horse battery");
    expect(await verifyPassword("correct horse battery", hash)).toBe(true);
    expect(await verifyPassword("correct horse batterY", hash)).toBe(false);
    expect(await verifyPassword("correct horse battery ", hash)).toBe(false);
    expect(await verifyPassword("", hash)).toBe(false);
  });

  it("handles non-ASCII passwords", async () => {
    const hash = await hashPassword("pässwörd-🔑-密码");
    expect(await verifyPassword("pässwörd-🔑-密码", hash)).toBe(true);
    expect(await verifyPassword("passwort-🔑-密码", hash)).toBe(false);
  });

  it("verifies a hash made with another iteration count (so the count can be raised later)", async () => {
    const hash = await hashPassword("older account", 1_000);
    expect(hash).toMatch(/^pbkdf2-sha256\$1000\$/);
    expect(await verifyPassword("older account", hash)).toBe(true);
    expect(await verifyPassword("older account!", hash)).toBe(false);
  });

  it("does not verify a hash whose iteration count was altered", async () => {
    const hash = await hashPassword("tamper test", 1_000);
    expect(await verifyPassword("tamper test", hash.replace("$1000$", "$1001$"))).toBe(false);
  });

  it.each([
    ["empty", ""],
    ["no separators", "garbage"],
    ["another algorithm", "bcrypt$10$c2FsdA$aGFzaA"],
    ["a non-numeric iteration count", "pbkdf2-sha256$many$c2FsdA$aGFzaA"],
    ["zero iterations", "pbkdf2-sha256$0$c2FsdA$aGFzaA"],
    ["negative iterations", "pbkdf2-sha256$-5$c2FsdA$aGFzaA"],
    ["fractional iterations", "pbkdf2-sha256$1.5$c2FsdA$aGFzaA"],
    ["a missing salt", "pbkdf2-sha256$1000$$aGFzaA"],
    ["a missing hash", "pbkdf2-sha256$1000$c2FsdA$"],
    ["too few parts", "pbkdf2-sha256$1000"],
    ["invalid base64 in the salt", "pbkdf2-sha256$1000$!!!*$aGFzaA"],
    ["invalid base64 in the hash", "pbkdf2-sha256$1000$c2FsdA$%%%%"],
    ["an impossible base64 length", "pbkdf2-sha256$1000$c2FsdAxyz$aGFzaA"],
    ["an iteration count above the supported maximum", `pbkdf2-sha256$${PASSWORD_ITERATIONS + 1}$c2FsdA$aGFzaA`],
    ["a huge iteration count", "pbkdf2-sha256$100000000$c2FsdA$aGFzaA"],
  ])("answers false (never throws) for a malformed stored hash: %s", async (_label, stored) => {
    await expect(verifyPassword("any password", stored)).resolves.toBe(false);
  });

  it("answers false when a valid hash has extra parts appended", async () => {
    const hash = await hashPassword("extra parts", 1_000);
    expect(await verifyPassword("extra parts", `${hash}$extra`)).toBe(false);
  });
});

describe("constantTimeEqual", () => {
  it("is true for equal strings and equal byte arrays", () => {
    expect(constantTimeEqual("", "")).toBe(true);
    expect(constantTimeEqual("secret-token", "secret-token")).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqual("ab", new Uint8Array([97, 98]))).toBe(true);
  });

  it("is false for any difference: content, length, prefix, trailing zero bytes", () => {
    expect(constantTimeEqual("secret-token", "secret-tokeN")).toBe(false);
    expect(constantTimeEqual("Secret-token", "secret-token")).toBe(false);
    expect(constantTimeEqual("secret", "secret-token")).toBe(false);
    expect(constantTimeEqual("secret-token", "secret")).toBe(false);
    expect(constantTimeEqual("", "x")).toBe(false);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
    expect(constantTimeEqual(new Uint8Array([0]), new Uint8Array([]))).toBe(false);
  });

  it("compares UTF-8 bytes, not UTF-16 units", () => {
    expect(constantTimeEqual("é", "é")).toBe(true);
    expect(constantTimeEqual("é", "e\u0301")).toBe(false);
  });
});
