import { readFileSync } from "node:fs";
import { DeepResearch } from "../client.js";
import { DEFAULT_BASE_URL } from "../http.js";
import { parseCommand, USAGE } from "./args.js";
import { type Io, runCancel, runCredits, runJobs, runPlan, runQuote, runResearch } from "./commands.js";
import { EXIT, explain } from "./messages.js";
import { parseMonitorsCommand, runMonitors } from "./monitors.js";

/** The CLI: `deep-research "question"` and its subcommands (see --help). Resolves with the exit code. */
export async function main(argv: string[]): Promise<number> {
  const baseUrl = (process.env.DEEP_RESEARCH_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "");
  const interrupt = new AbortController();
  const io: Io = { stdout: process.stdout, stderr: process.stderr, interrupted: interrupt.signal };
  let interrupts = 0;
  // First Ctrl-C: cancel the running job and say what it was charged. A second one leaves at once.
  const onInterrupt = () => {
    if (++interrupts > 1) process.exit(EXIT.interrupted);
    process.stderr.write("\nCancelling the job… (Ctrl-C again to leave without waiting)\n");
    interrupt.abort(new Error("interrupted (Ctrl-C)"));
  };
  try {
    // `monitors ...` has its own actions and options (cli/monitors.ts); `-- monitors` asks a question.
    const command = argv[0] === "monitors" ? parseMonitorsCommand(argv.slice(1)) : parseCommand(argv);
    if (command.kind === "help") {
      process.stdout.write(`${USAGE}\n`);
      return EXIT.ok;
    }
    if (command.kind === "version") {
      const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string };
      process.stdout.write(`${version}\n`);
      return EXIT.ok;
    }
    const apiKey = process.env.DEEP_RESEARCH_API_KEY;
    if (!apiKey) {
      process.stderr.write(`DEEP_RESEARCH_API_KEY is not set: set it to a key from the dashboard (API keys page, ${baseUrl}/keys).\n`);
      return EXIT.auth;
    }
    const client = new DeepResearch({
      apiKey,
      baseUrl,
      // A wait of more than a moment is said, so a silent CLI is never mistaken for a hung one.
      onRetry: ({ delayMs, status }) => {
        if (delayMs >= 2000)
          process.stderr.write(
            `${status === 429 ? "Rate limited" : status ? `HTTP ${status}` : "Connection failed"}: retrying in ${Math.round(delayMs / 1000)} s…\n`,
          );
      },
    });
    switch (command.kind) {
      case "credits":
        return await runCredits(client, command.json, io);
      case "jobs":
        return await runJobs(client, command, io);
      case "cancel":
        return await runCancel(client, command.id, command.json, io);
      case "plan":
        return await runPlan(client, command, io);
      case "monitors":
        return await runMonitors(client, command, io);
      case "research":
        if (command.quote) return await runQuote(client, command, io, baseUrl);
        process.on("SIGINT", onInterrupt);
        return await runResearch(client, command, io);
    }
  } catch (error) {
    const { message, exitCode } = explain(error, baseUrl);
    process.stderr.write(`${message}\n`);
    return exitCode;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}
