import { spawn } from "node:child_process";

export interface SnippetRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a copied snippet as its own process and waits for it without blocking the test's worker, so
 * Playwright's timeout still fires if the snippet never ends (spawnSync would hold the worker past it).
 */
export function runSnippet(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<SnippetRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}
