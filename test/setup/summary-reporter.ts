import { relative } from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI can read, after
 * a line saying how many documented operations had a response checked against /openapi.json
 * (see setup/check-responses.ts) and naming any that no test exercised. The failed tests follow the
 * counts, one a line ("    test/file.test.ts › its name"), as Playwright lists them: a CI log
 * that keeps only its end still names them (scripts/test.mjs repeats them in its verdict).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failed: string[] = [];
    const documented = new Set<string>();
    const checked = new Set<string>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") counts.passed += 1;
        else if (state === "failed") {
          counts.failed += 1;
          failed.push(`${relative(process.cwd(), module.moduleId)} › ${test.fullName}`);
        } else counts.skipped += 1;
        const contract = test.meta().contract;
        for (const operation of contract?.documented ?? []) documented.add(operation);
        for (const operation of contract?.checked ?? []) checked.add(operation);
      }
      if (module.state() === "failed" && ![...module.children.allTests()].some((t) => t.result().state === "failed")) {
        counts.failed += 1; // a file that failed to load counts as a failure
        failed.push(`${relative(process.cwd(), module.moduleId)} › (the file failed to load)`);
      }
    }
    if (documented.size > 0) {
      const unexercised = [...documented].filter((operation) => !checked.has(operation));
      process.stdout.write(
        `\nOpenAPI contract: responses of ${documented.size - unexercised.length} of ${documented.size} operations checked` +
          (unexercised.length ? `; not exercised: ${unexercised.join(", ")}` : "") +
          "\n",
      );
    }
    process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
    for (const name of failed) process.stdout.write(`    ${name}\n`);
  }
}
