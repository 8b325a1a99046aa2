/**
 * A minimal valid PDF (one page, Helvetica) with these lines of text, made in the test rather than
 * shipped: no lines gives a page with only a drawn line on it, like a scan without OCR.
 */
export function minimalPdf(lines: string[], title?: string): Uint8Array {
  const escapePdf = (text: string) => text.replace(/\\/g, "\\\\").replace(/\(/g, "\\(").replace(/\)/g, "\\)");
  const content = lines.length > 0 ? `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((line) => `(${escapePdf(line)}) '`).join(" ")} ET` : "72 720 m 300 500 l S";
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    title ? `<< /Title (${escapePdf(title)}) >>` : "<< >>",
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
