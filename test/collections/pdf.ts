/**
 * A minimal valid PDF (one page, Helvetica) with these lines of text, made in the test rather than
 * shipped: no lines gives a page with only a drawn line on it, like a scan without OCR.
 */
export function minimalPdf(lines: string[], title?: string, moreInfo = ""): Uint8Array {
  const escapePdf = (text: string) => text.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)");
  const content = lines.length > 0 ? `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((line) => `(${escapePdf(line)}) '`).join(" ")} ET` : "72 720 m 300 500 l S";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< ${title ? `/Title (${escapePdf(title)}) ` : ""}${moreInfo} >>`,
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(pdf);
}

/**
 * A PDF from its objects (numbered from 1 in order; a Uint8Array is a stream's raw data, written
 * after the dictionary before it in `objects`): `pdfOf([...], rootNumber, infoNumber?)`. Objects
 * are written as bytes, so a stream may hold binary (deflated) data.
 */
export function pdfOf(objects: Array<string | { dictionary: string; data: Uint8Array }>, root = 1): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (part: string | Uint8Array) => {
    const bytes = typeof part === "string" ? encoder.encode(part) : part;
    parts.push(bytes);
    length += bytes.length;
  };
  push("%PDF-1.4\n");
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(length);
    push(`${index + 1} 0 obj\n`);
    if (typeof body === "string") push(body);
    else {
      push(`${body.dictionary.replace(/>>\s*$/, "")} /Length ${body.data.length} >>\nstream\n`);
      push(body.data);
      push("\nendstream");
    }
    push("\nendobj\n");
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const pdf = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    pdf.set(part, at);
    at += part.length;
  }
  return pdf;
}

const escapePdf = (text: string) => text.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)");

/**
 * A PDF of `pages` pages, each with the lines `linesOf(page)` (page numbers from 1) in Helvetica of
 * `fontSize` points (PDF.js leaves out text that falls outside the page: small type fits more).
 */
export function pagedPdf(
  pages: number,
  linesOf: (page: number) => string[] = (page) => [`Page ${page} of the harbor report.`, "The board approved the budget."],
  fontSize = 12,
): Uint8Array {
  const encoder = new TextEncoder();
  const objects: Array<string | { dictionary: string; data: Uint8Array }> = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${4 + 2 * i} 0 R`).join(" ")}] /Count ${pages} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  for (let page = 1; page <= pages; page++) {
    const content = `BT /F1 ${fontSize} Tf ${fontSize * 1.2} TL 36 756 Td ${linesOf(page)
      .map((line) => `(${escapePdf(line)}) '`)
      .join(" ")} ET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * (page - 1)} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`);
    objects.push({ dictionary: "<< >>", data: encoder.encode(content) });
  }
  return pdfOf(objects);
}

/**
 * A one-page PDF whose page content is `deflated` (zlib data, /FlateDecode): with deflated zeros,
 * a flate bomb (a few hundred KB that inflate to hundreds of MB).
 */
export function flatePdf(deflated: Uint8Array): Uint8Array {
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>",
    { dictionary: "<< /Filter /FlateDecode >>", data: deflated },
  ]);
}

/** zlib-deflates `size` zero bytes with the runtime's CompressionStream, without holding them all. */
export async function deflatedZeros(size: number): Promise<Uint8Array> {
  const chunk = new Uint8Array(1024 * 1024);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (size <= 0) return controller.close();
      const n = Math.min(size, chunk.length);
      size -= n;
      controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  }).pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Bytes that, decoded with /RunLengthDecode, give `size` zeros (128 from every 2 bytes: 64 times their size). */
export function runLengthZeros(size: number): Uint8Array {
  const runs = Math.ceil(size / 128);
  const data = new Uint8Array(runs * 2 + 1);
  for (let i = 0; i < runs; i++) data[i * 2] = 129; // 257 - 129 = 128 copies of the next byte (0)
  data[runs * 2] = 128; // end of data
  return data;
}

/**
 * Codes that, decoded with /LZWDecode (early change 1, as PDF.js reads it), give at least `size`
 * zeros: each new code is the last one plus a zero, until the table is full; then its longest
 * entry (3,839 zeros) again and again, 12 bits each.
 */
export function lzwZeros(size: number): Uint8Array {
  const codes: number[] = [0];
  let produced = 1;
  for (let code = 258; code < 4096 && produced < size; code++) {
    codes.push(code);
    produced += code - 256;
  }
  while (produced < size) {
    codes.push(4095);
    produced += 4095 - 256;
  }
  codes.push(257); // end of data
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  let width = 9;
  let next = 258;
  codes.forEach((code, index) => {
    buffer = (buffer << width) | code;
    bits += width;
    while (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
    buffer &= (1 << bits) - 1;
    // The decoder adds an entry after every code but the first, then widens its codes (early change).
    if (index > 0) next++;
    if (next + 1 >= 512) width = 10;
    if (next + 1 >= 1024) width = 11;
    if (next + 1 >= 2048) width = 12;
  });
  if (bits > 0) bytes.push((buffer << (8 - bits)) & 0xff);
  return new Uint8Array(bytes);
}

/** Bytes as /ASCIIHexDecode data. */
export const asciiHex = (bytes: Uint8Array) => new TextEncoder().encode(`${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}>`);

/** /ASCII85Decode data of `size` zeros: `z` stands for four, so 4 times its size. */
export const ascii85Zeros = (size: number) => new TextEncoder().encode(`${"z".repeat(Math.ceil(size / 4))}~>`);

/** zlib-deflates bytes (CompressionStream). */
export async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
}

/**
 * A one-page PDF whose page content (object 4) is a stream with `dictionary` and `data`, with a
 * cross-reference stream and a Flate-compressed object stream (object 5) holding object 6
 * (`object6`) and, when `contentInObjectStream`, the content stream itself (a stream inside an
 * object stream, which PDF.js reads).
 */
export async function objectStreamPdf(content: { dictionary: string; data: Uint8Array }, object6: string, contentInObjectStream: boolean): Promise<Uint8Array> {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  let length = 0;
  const push = (part: string | Uint8Array) => {
    const bytes = typeof part === "string" ? encoder.encode(part) : part;
    parts.push(bytes);
    length += bytes.length;
  };
  const contentObject = () => [`${content.dictionary.replace(/>>\s*$/, "")} /Length ${content.data.length} >>\nstream\n`, content.data, "\nendstream"];
  // The object stream: "number offset" pairs, then the objects.
  const inStream: Array<[number, Array<string | Uint8Array>]> = [[6, [object6]]];
  if (contentInObjectStream) inStream.push([4, contentObject()]);
  const bodies: Uint8Array[] = [];
  let offset = 0;
  const header: string[] = [];
  for (const [number, pieces] of inStream) {
    header.push(`${number} ${offset}`);
    for (const piece of [...pieces, "\n"]) {
      const bytes = typeof piece === "string" ? encoder.encode(piece) : piece;
      bodies.push(bytes);
      offset += bytes.length;
    }
  }
  const first = encoder.encode(`${header.join(" ")}\n`);
  const objectStream = await deflate(new Uint8Array(await new Blob([first, ...bodies]).arrayBuffer()));

  const offsets = new Map<number, number>();
  const object = (number: number, pieces: Array<string | Uint8Array>) => {
    offsets.set(number, length);
    push(`${number} 0 obj\n`);
    for (const piece of pieces) push(piece);
    push("\nendobj\n");
  };
  push("%PDF-1.5\n");
  object(1, ["<< /Type /Catalog /Pages 2 0 R >>"]);
  object(2, ["<< /Type /Pages /Kids [3 0 R] /Count 1 >>"]);
  object(3, ["<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>"]);
  if (!contentInObjectStream) object(4, contentObject());
  object(5, [
    `<< /Type /ObjStm /N ${inStream.length} /First ${first.length} /Filter /FlateDecode /Length ${objectStream.length} >>\nstream\n`,
    objectStream,
    "\nendstream",
  ]);
  // The cross-reference stream (object 7): type, offset or object stream, generation or index.
  const entry = (type: number, field: number, index: number) => [
    type,
    (field >>> 24) & 255,
    (field >>> 16) & 255,
    (field >>> 8) & 255,
    field & 255,
    (index >>> 8) & 255,
    index & 255,
  ];
  const xrefAt = length;
  offsets.set(7, xrefAt);
  const rows = [entry(0, 0, 65535)];
  for (let number = 1; number <= 7; number++) {
    const compressed = inStream.findIndex(([n]) => n === number);
    rows.push(compressed >= 0 ? entry(2, 5, compressed) : entry(1, offsets.get(number)!, 0));
  }
  const xref = new Uint8Array(rows.flat());
  object(7, [`<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Length ${xref.length} >>\nstream\n`, xref, "\nendstream"]);
  push(`startxref\n${xrefAt}\n%%EOF\n`);
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}
