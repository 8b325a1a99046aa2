/**
 * A fetched page's bytes as text, in the character encoding the page declares (issue 42, item 5).
 * Every page used to be decoded as UTF-8, so a windows-1252 or Shift_JIS page came out with its
 * accents and its whole Japanese text as replacement characters.
 *
 * Which encoding, in the order the HTML standard gives (https://html.spec.whatwg.org/#encoding-sniffing-algorithm):
 *  1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE) wins over any declaration;
 *  2. the `charset` of the Content-Type header;
 *  3. for HTML, a `<meta charset>` or `<meta http-equiv="Content-Type" content="...; charset=">`
 *     in the first 1024 bytes (a declared UTF-16 means UTF-8 there, as the standard says: the
 *     bytes of the declaration itself were read as ASCII);
 *  4. nothing declared: UTF-8 when the bytes are valid UTF-8, else windows-1252 (what browsers
 *     fall back to for Western pages, and what a legacy page without a declaration most often is).
 * The runtime's TextDecoder (workerd, as in production) knows every encoding of the Encoding
 * Standard (https://encoding.spec.whatwg.org/#names-and-labels). A label it does not know (a
 * misspelling, `utf-7`) falls back to step 4; the standard's "replacement" labels (ISO-2022-KR,
 * HZ-GB-2312) decode to one replacement character, so such a page has no text and is not kept.
 */

export interface DecodedPage {
  text: string;
  /** The encoding's canonical name (TextDecoder's `encoding`), e.g. `windows-1252`. */
  encoding: string;
}

/** Bytes of the document the `<meta>` prescan looks at (the standard's bound). */
const PRESCAN_BYTES = 1024;

export function decodePage(bytes: Uint8Array, contentType: string | null, isHtml: boolean): DecodedPage {
  const bom = byteOrderMark(bytes);
  if (bom) return decodeWith(bom.encoding, bytes.subarray(bom.length));
  const declared = decoderFor(charsetOf(contentType)) ?? (isHtml ? decoderFor(metaCharset(bytes), true) : undefined);
  if (declared) return decodeWith(declared, bytes);
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes), encoding: "utf-8" };
  } catch {
    return decodeWith("windows-1252", bytes);
  }
}

function decodeWith(encoding: string, bytes: Uint8Array): DecodedPage {
  const decoder = new TextDecoder(encoding);
  return { text: decoder.decode(bytes), encoding: decoder.encoding };
}

function byteOrderMark(bytes: Uint8Array): { encoding: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return undefined;
}

/** The canonical name of a label the runtime can decode, or undefined (unknown or absent). */
function decoderFor(label: string | undefined, fromMeta = false): string | undefined {
  if (!label) return undefined;
  let encoding: string;
  try {
    encoding = new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
  // A <meta> found by reading the bytes as ASCII cannot be right about UTF-16; x-user-defined is for XHR only.
  if (fromMeta && encoding.startsWith("utf-16")) return "utf-8";
  if (encoding === "x-user-defined") return "windows-1252";
  return encoding;
}

/** `charset` of a Content-Type value (`text/html; charset="Shift_JIS"`). */
export function charsetOf(contentType: string | null | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType ?? "");
  return match?.[2];
}

/** The charset a `<meta>` in the first 1024 bytes declares, read as ASCII. */
export function metaCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, PRESCAN_BYTES)).replace(/<!--[\s\S]*?-->/g, "");
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct && !/\bcontent\s*=/i.test(tag)) return direct[1];
    if (/\bhttp-equiv\s*=\s*["']?\s*content-type/i.test(tag)) {
      const content = /\bcontent\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(tag);
      const value = content?.[1] ?? content?.[2] ?? content?.[3];
      const charset = /charset\s*=\s*["']?([^"'\s;]+)/i.exec(value ?? "")?.[1];
      if (charset) return charset;
    }
  }
  return undefined;
}
