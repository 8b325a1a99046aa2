import type { AsyncAccepted, ModePrice, Progress, ResearchEvent } from "../types.js";
import { usd } from "./format.js";

/** Where the bar is drawn: stderr, or a test's stand-in. */
export interface ProgressOutput {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Where each stage sits: inside a wave (a share of it), or as a fixed point around the waves. */
const STAGES: Record<Progress["stage"], { inWave: number } | { at: number }> = {
  planning: { at: 0.02 },
  searching: { inWave: 0 },
  reading: { inWave: 1 / 3 },
  analyzing: { inWave: 2 / 3 },
  reflecting: { inWave: 5 / 6 },
  synthesizing: { at: 0.87 },
  critic: { at: 0.93 },
  typed_output: { at: 0.96 },
  done: { at: 1 },
};

/** How far along a job is, from its stage and wave: an estimate for the bar, not a promise (a job may need fewer waves). */
export function fractionDone(progress: Progress, maxWaves: number): number {
  const stage = STAGES[progress.stage] ?? { at: 0 };
  if ("at" in stage) return stage.at;
  const waves = Math.max(maxWaves, progress.wave, 1);
  return 0.05 + (0.8 * (Math.max(progress.wave, 1) - 1 + stage.inWave)) / waves;
}

const BAR_WIDTH = 20;

/**
 * The live progress of a job on stderr: one line, redrawn in place on a terminal
 * (stage · wave n/N · k sources · $cost / $cap), or plain lines when stderr is a file or a pipe,
 * one each time the stage or wave changes.
 */
export class ProgressView {
  private progress: Progress | null = null;
  private sources = 0;
  private fraction = 0;
  private lastPlain = "";
  private drawn = false;

  constructor(
    private readonly out: ProgressOutput,
    /** The mode's limits (from the public price list), for the cap and the wave count; null when unknown. */
    private readonly mode: ModePrice | null,
    /** A max job's cap comes from its max_credits. */
    private readonly maxCredits?: number,
  ) {}

  accepted(job: AsyncAccepted, modeName: string): void {
    this.line(`job ${job.id} accepted (${modeName}${this.capUsd() === null ? "" : `, up to ${usd(this.capUsd()!)}`}); Ctrl-C cancels it`);
  }

  event(event: ResearchEvent): void {
    if (event.event === "source") this.sources++;
    else if (event.event === "progress") this.progress = event.data;
    else return;
    this.fraction = Math.max(this.fraction, this.progress ? fractionDone(this.progress, this.mode?.max_waves ?? 1) : 0);
    if (!this.progress) return;
    const status = this.status(this.progress);
    if (this.out.isTTY) {
      const bar = "█".repeat(Math.round(this.fraction * BAR_WIDTH)).padEnd(BAR_WIDTH, "░");
      const text = `${bar} ${String(Math.round(this.fraction * 100)).padStart(3)}% ${status}`;
      // Never wider than the terminal, or the line wraps and the next redraw cannot erase it (0: unknown).
      const width = this.out.columns && this.out.columns > 30 ? this.out.columns : 80;
      this.out.write(`\r\x1b[2K${text.slice(0, width - 1)}`);
      this.drawn = true;
    } else {
      // One line per stage or wave; the source count and cost ride along.
      const key = `${this.progress.stage}/${this.progress.wave}`;
      if (key !== this.lastPlain) {
        this.lastPlain = key;
        this.out.write(`${status}\n`);
      }
    }
  }

  /** Clears the bar (before the result or a message is printed). */
  finish(): void {
    if (this.drawn) this.out.write("\r\x1b[2K");
    this.drawn = false;
  }

  /** A line of its own, above the bar. */
  line(text: string): void {
    this.finish();
    this.out.write(`${text}\n`);
  }

  private capUsd(): number | null {
    if (this.maxCredits !== undefined && this.mode?.max_cost_usd === null) return this.maxCredits / 100;
    return this.mode?.max_cost_usd ?? null;
  }

  private status(progress: Progress): string {
    const maxWaves = this.mode?.max_waves;
    const parts = [progress.stage.replace("_", " ")];
    if (progress.wave > 0) parts.push(`wave ${progress.wave}${maxWaves ? `/${Math.max(maxWaves, progress.wave)}` : ""}`);
    parts.push(`${this.sources} source${this.sources === 1 ? "" : "s"}`);
    const cap = this.capUsd();
    parts.push(`${usd(progress.cost_usd)}${cap === null ? "" : ` / ${usd(cap)}`}`);
    return parts.join(" · ");
  }
}
