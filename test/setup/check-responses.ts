import { afterEach } from "vitest";
import { checkedOperations, checkRecordedExchanges, documentedOperations } from "./response-contract";

declare module "vitest" {
  interface TaskMeta {
    /** Operations (their operationIds) whose responses this test checked against /openapi.json, and all the document has. */
    contract?: { checked: string[]; documented?: string[] };
  }
}

// A response that breaks the published document fails the test that received it; what was
// checked travels to the summary reporter, which names the operations no test exercised.
afterEach(async ({ task }) => {
  const problems = await checkRecordedExchanges();
  task.meta.contract = { checked: [...checkedOperations], documented: documentedOperations };
  checkedOperations.clear();
  if (problems.length > 0) throw new Error(`responses that break /openapi.json:\n${problems.join("\n")}`);
});
