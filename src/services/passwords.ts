import { constantTimeEqual, fromBase64Url, randomBytes, toBase64Url } from "../lib/crypto";

/**
 * PBKDF2-SHA256 at 100,000 iterations: the most the Workers runtime allows in production.
 * The algorithm and iteration count are stored inside the hash, so they can be raised later
 * and old hashes still verify (and can be re-hashed at the next login).
 */
export const PASSWORD_ITERATIONS = 100_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
const ALGORITHM = "pbkdf2-sha256";
const SALT_BYTES = 16;
const HASH_BITS = 256;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PASSWORD_ITERATIONS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

/**
 * True only when `stored` is a well-formed hash of `password`. A malformed stored hash (wrong
 * number of parts, bad base64, an iteration count the runtime cannot run) is false, never an
 * exception: a corrupt row must fail that one login, not turn it into a 500.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 4) return false;
  const [algorithm, iterationsText, saltText, hashText] = parts;
  const iterations = Number(iterationsText);
  // Above PASSWORD_ITERATIONS the production runtime refuses PBKDF2 anyway (and locally a huge
  // count would stall the request); raising the constant raises this bound with it.
  if (algorithm !== ALGORITHM || !Number.isInteger(iterations) || iterations < 1 || iterations > PASSWORD_ITERATIONS) {
    return false;
  }
  if (!saltText || !hashText) return false;
  let salt: Uint8Array;
  let expected: Uint8Array;
  try {
    salt = fromBase64Url(saltText);
    expected = fromBase64Url(hashText);
  } catch {
    return false; // atob rejects characters outside the alphabet and impossible lengths
  }
  const actual = await derive(password, salt, iterations);
  return constantTimeEqual(actual, expected);
}

/**
 * A fixed hash verified when a login names an unknown email, so the response takes as long
 * as for a real account and timing does not reveal which emails are registered.
 */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword("decoy-password-for-unknown-accounts");
  return decoyHash;
}
