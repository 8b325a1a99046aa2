/** Bytes for the reader's charset tests: a string of code points below 256 as single bytes, and byte arrays joined. */

export const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
