// What `npm start` shows of `wrangler dev`'s output: what a developer acts on (requests, the
// Worker's logs, errors and warnings), not its banner and the table of bindings it prints twice.
// The readiness line becomes one `[start]` line with the address. START_VERBOSE=1 shows it all.

/** Lines that say nothing a developer of this project acts on. */
const NOISE = [
  /^\s*⛅️ wrangler \d/,
  /^─+$/,
  /^Using (secrets|vars) defined in /,
  /^⎔ (Starting local server|Connection status updated|Reloading local server)/,
  /^\[wrangler:info\] Ready on /,
];

/** The start of the bindings table; it runs until the next blank line. */
const BINDINGS = /^Your Worker has access to the following bindings:/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes are what it removes
const stripAnsi = (line) => line.replace(/\u001b\[[0-9;]*m/g, "");

/**
 * A line filter: returns what to print for each line of wrangler's output (null: nothing).
 * `onReady` is told the address once wrangler serves.
 */
export function wranglerOutputFilter({ onReady }) {
  let inBindings = false;
  let blankRun = 1; // no blank line before the first one shown
  return (raw) => {
    const line = stripAnsi(raw).trimEnd();
    const ready = /^\[wrangler:info\] Ready on (\S+)/.exec(line);
    if (ready) onReady(ready[1]);
    if (inBindings) {
      if (line === "") inBindings = false;
      return null;
    }
    if (BINDINGS.test(line)) {
      inBindings = true;
      return null;
    }
    if (NOISE.some((pattern) => pattern.test(line))) return null;
    // Blank lines only as separators, never several in a row.
    blankRun = line === "" ? blankRun + 1 : 0;
    return blankRun > 1 ? null : raw;
  };
}

/** Pipes a readable stream to `write` line by line through `filter`. */
export function pipeLines(stream, filter, write) {
  let pending = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const shown = filter(line);
      if (shown !== null) write(`${shown}\n`);
    }
  });
  stream.on("end", () => {
    const shown = pending ? filter(pending) : null;
    if (shown !== null) write(`${shown}\n`);
  });
}
