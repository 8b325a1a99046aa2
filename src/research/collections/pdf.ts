/** Moved to providers/pdf/ (issue 42: the web reader reads PDFs too); kept until files.ts imports it from there. */
export { readPdf } from "../providers/pdf/read-pdf";
