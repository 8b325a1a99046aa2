// The results file's lines: every section logs through `log`, which prints a line and keeps it
// for the file npm run bench writes at the end (bench/report.ts's writeResults).

export const lines: string[] = [];
export const log = (line = "") => {
  console.log(line);
  lines.push(line);
};
