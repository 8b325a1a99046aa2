#!/usr/bin/env node
// `npm install` runs this (the package's `postinstall` script). It appends one line to unpdf's
// PDF.js bundle (node_modules/unpdf/dist/pdfjs.mjs) that hands its stream decoder classes (and its
// character map, whose ranges expand too) to the Worker, so
// src/research/providers/pdf/decode-budget.ts can count every byte PDF.js decodes (issue 39): a pre-scan of the file guessed which streams PDF.js would decode and with which
// filters, and each guess it got wrong (an indirect /Filter, a #xx name escape, RunLengthDecode,
// a stream inside an object stream, one stream decoded many times) let a bomb through. The bundle
// keeps these classes to itself, and a Worker cannot evaluate a patched copy at run time.
// Idempotent. It fails the install when the bundle no longer has the classes (a new unpdf): the
// Worker refuses PDFs without them anyway (fail closed), and this says why at the right moment.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bundle = join(root, "node_modules", "unpdf", "dist", "pdfjs.mjs");
/** Must match DECODERS_KEY in src/research/providers/pdf/decode-budget.ts. */
const KEY = "deep-research.pdfjs-decoders";
const MARK = `/* ${KEY} */`;
/** Each class the line hands over, and how the bundle declares its top-level binding (minified names vary). */
const CLASSES = {
  DecodeStream: /\bvar (DecodeStream)=class /,
  FlateStream: /\bvar (FlateStream)=class /,
  BrotliStream: /\bvar (BrotliStream)=class /,
  JpegStream: /[\s,;]([\w$]+)=class JpegStream extends /,
  JpxStream: /[\s,;}](JpxStream)=class extends /,
  Jbig2Stream: /[\s,;}]([\w$]+)=class Jbig2Stream extends /,
  CMap: /;var (CMap)=class\{/,
};

let text;
try {
  text = readFileSync(bundle, "utf8");
} catch {
  console.warn("patch-pdfjs: unpdf is not installed; nothing to patch.");
  process.exit(0);
}
if (!text.includes(MARK)) {
  const bindings = Object.entries(CLASSES).map(([name, declaration]) => [name, declaration.exec(text)?.[1]]);
  const missing = bindings.filter(([, binding]) => !binding).map(([name]) => name);
  if (missing.length > 0) {
    console.error(
      `patch-pdfjs: ${bundle} no longer declares ${missing.join(", ")}; PDF uploads stay refused until src/research/providers/pdf/decode-budget.ts and this script follow the new unpdf.`,
    );
    process.exit(1);
  }
  // A function, not the classes: it reads the bindings when called, after the module has run.
  writeFileSync(
    bundle,
    `${text}\n${MARK}\nglobalThis[Symbol.for(${JSON.stringify(KEY)})]=()=>({${bindings.map(([name, binding]) => `${name}:${binding}`).join(",")}});\n`,
  );
}
