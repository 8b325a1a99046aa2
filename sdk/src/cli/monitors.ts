import { parseArgs } from "node:util";
import type { DeepResearch } from "../client.js";
import type { Monitor, MonitorCreate, MonitorRun, ResearchMode } from "../types.js";
import { UsageError } from "./args.js";
import type { Io } from "./commands.js";
import { credits } from "./format.js";
import { EXIT } from "./messages.js";
import { RESEARCH_MODES } from "./modes.js";

/** `deep-research monitors <action> ...`: the /v1/monitors operations. */
export type MonitorsCommand =
  | { kind: "monitors"; action: "list"; json: boolean }
  | { kind: "monitors"; action: "create"; json: boolean; body: MonitorCreate }
  | { kind: "monitors"; action: "get" | "runs" | "run" | "pause" | "resume" | "delete"; json: boolean; id: string };

const ACTIONS = ["list", "create", "get", "runs", "run", "pause", "resume", "delete"] as const;

export function parseMonitorsCommand(argv: string[]): MonitorsCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        every: { type: "string" },
        cron: { type: "string" },
        mode: { type: "string", short: "m" },
        webhook: { type: "string" },
        "max-credits": { type: "string" },
        collection: { type: "string", multiple: true },
        json: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const [action, ...rest] = positionals;
  const json = values.json ?? false;
  if (!action || !(ACTIONS as readonly string[]).includes(action)) throw new UsageError(`"monitors" takes one of ${ACTIONS.join(", ")}.`);
  const createOnly = ["every", "cron", "mode", "webhook", "max-credits", "collection"].filter(
    (name) => (values as Record<string, unknown>)[name] !== undefined,
  );
  if (action !== "create" && createOnly.length > 0) throw new UsageError(`--${createOnly[0]} applies to "monitors create" only.`);
  if (action === "list") {
    if (rest.length > 0) throw new UsageError('"monitors list" takes no arguments.');
    return { kind: "monitors", action, json };
  }
  if (action === "create") {
    const question = rest.join(" ").trim();
    if (!question) throw new UsageError('Give a question: deep-research monitors create "question" --every 1d');
    if ((values.every === undefined) === (values.cron === undefined)) throw new UsageError("Give one of --every (6h, 2d) or --cron.");
    const mode = values.mode ?? "standard";
    if (!(RESEARCH_MODES as readonly string[]).includes(mode)) throw new UsageError(`--mode must be one of ${RESEARCH_MODES.join(", ")}.`);
    const maxCredits = values["max-credits"];
    if (maxCredits !== undefined && !/^[1-9]\d*$/.test(maxCredits)) throw new UsageError(`--max-credits must be a positive whole number, not "${maxCredits}".`);
    const body: MonitorCreate = {
      question,
      mode: mode as ResearchMode,
      schedule: values.every !== undefined ? { every: values.every } : { cron: values.cron as string },
      ...(values.webhook !== undefined && { webhook_url: values.webhook }),
      ...(maxCredits !== undefined && { max_credits_per_run: Number(maxCredits) }),
      ...(values.collection && { collections: values.collection }),
    };
    return { kind: "monitors", action, json, body };
  }
  if (rest.length !== 1) throw new UsageError(`"monitors ${action}" takes one monitor id: deep-research monitors ${action} <id>`);
  return { kind: "monitors", action: action as Exclude<MonitorsCommand["action"], "list" | "create">, json, id: rest[0]! };
}

const schedule = (monitor: Monitor) => (monitor.schedule.every ? `every ${monitor.schedule.every}` : `cron "${monitor.schedule.cron}" UTC`);

function monitorLine(monitor: Monitor): string {
  const state = monitor.status === "active" ? `next ${monitor.next_run_at?.slice(0, 16).replace("T", " ") ?? "soon"}` : `paused (${monitor.paused_reason})`;
  return `${monitor.id}  ${monitor.mode}, ${schedule(monitor)}, ${state}  ${monitor.question}`;
}

function runLines(run: MonitorRun): string {
  const head = `${run.created_at.slice(0, 19).replace("T", " ")}  ${run.status}  job ${run.job_id}${run.credits_charged === null ? "" : `  ${credits(run.credits_charged)}`}`;
  if (!run.diff) return `${head}\n  ${run.status === "succeeded" ? "baseline (first run)" : run.status === "running" ? "running" : "no diff"}`;
  const d = run.diff;
  if (!d.changed) return `${head}\n  nothing changed`;
  return [
    head,
    ...d.sources_added.map((s) => `  + source ${s.title} ${s.url}`),
    ...d.sources_removed.map((s) => `  - source ${s.title} ${s.url}`),
    ...(d.answer.changed ? [`  answer: "${d.answer.previous ?? "none"}" -> "${d.answer.current ?? "none"}"`] : []),
    ...d.claims_added.map((c) => `  + ${c}`),
    ...d.claims_withdrawn.map((c) => `  - ${c}`),
  ].join("\n");
}

export async function runMonitors(client: DeepResearch, command: MonitorsCommand, io: Io): Promise<number> {
  const print = (value: unknown, text: string) => io.stdout.write(command.json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`);
  switch (command.action) {
    case "list": {
      const monitors = await client.monitors.list({ limit: 100 });
      print(monitors, monitors.length === 0 ? "No monitors." : monitors.map(monitorLine).join("\n"));
      break;
    }
    case "create": {
      const monitor = await client.monitors.create(command.body);
      print(monitor, `Monitor ${monitor.id}: ${schedule(monitor)}, ${credits(monitor.credits_per_run)} a run; the first run starts within a minute.`);
      break;
    }
    case "get": {
      const monitor = await client.monitors.get(command.id);
      print(monitor, monitorLine(monitor));
      break;
    }
    case "runs": {
      const runs = await client.monitors.runs(command.id, { limit: 100 });
      print(runs, runs.length === 0 ? "No runs yet." : runs.map(runLines).join("\n"));
      break;
    }
    case "run": {
      const run = await client.monitors.run(command.id);
      print(run, `Run ${run.id} started: job ${run.job_id}.`);
      break;
    }
    case "pause":
    case "resume": {
      const monitor = command.action === "pause" ? await client.monitors.pause(command.id) : await client.monitors.resume(command.id);
      print(monitor, monitorLine(monitor));
      break;
    }
    case "delete": {
      const deleted = await client.monitors.delete(command.id);
      print(deleted, `Deleted monitor ${command.id}.`);
      break;
    }
  }
  return EXIT.ok;
}
