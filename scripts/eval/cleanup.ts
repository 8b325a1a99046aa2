/**
 * Cleanup that runs however the evaluation ends: normally (the caller awaits `runCleanup`),
 * on Ctrl-C / SIGTERM / SIGHUP, on an uncaught error, and, as a last resort, synchronously in
 * the `exit` handler (where only synchronous work such as kill and rmSync can still run).
 */

interface Cleanup {
  /** Graceful, may await. */
  run: () => Promise<void>;
  /** Synchronous last resort at process exit. */
  runSync: () => void;
}

const cleanups: Cleanup[] = [];
let installed = false;
let running: Promise<void> | null = null;
let exiting = false;

/** True once a signal or an uncaught error has started the way out. */
export function isExiting(): boolean {
  return exiting;
}

export function onCleanup(cleanup: Cleanup): void {
  cleanups.push(cleanup);
  install();
}

/** Runs every registered cleanup once, newest first. */
export function runCleanup(): Promise<void> {
  running ??= (async () => {
    for (const cleanup of cleanups.toReversed()) {
      try {
        await cleanup.run();
      } catch (error) {
        console.error(`cleanup failed: ${(error as Error).message}`);
      }
    }
    cleanups.length = 0;
  })();
  return running;
}

function install(): void {
  if (installed) return;
  installed = true;
  const fatal = (code: number, reason: unknown) => {
    if (reason !== undefined) console.error(reason);
    if (exiting) return; // a repeated signal (npm and tsx relay Ctrl-C too) must not cut the cleanup short
    exiting = true;
    void runCleanup().finally(() => process.exit(code));
  };
  // Persistent listeners, not once(): with no listener left, tsx's own handler would exit at once.
  process.on("SIGINT", () => fatal(130, exiting ? undefined : "\ninterrupted: stopping the server and removing its state"));
  process.on("SIGTERM", () => fatal(143, exiting ? undefined : "terminated: stopping the server and removing its state"));
  process.on("SIGHUP", () => fatal(129, undefined));
  process.on("uncaughtException", (error) => fatal(1, error));
  process.on("unhandledRejection", (error) => fatal(1, error));
  process.on("exit", () => {
    for (const cleanup of cleanups.toReversed()) {
      try {
        cleanup.runSync();
      } catch {
        /* nothing more can be done */
      }
    }
  });
}
