// npm run sdk:client [-- <base url>]: regenerates the SDK's types (sdk/src/schema.d.ts) from the
// /openapi.json of a service started the way `npm start` does, or of the running one at <base url>
// (faster). A test checks they never drift.
import { writeFileSync } from "node:fs";
import { startServer } from "../test/e2e/server.ts";
import { SDK_TYPES_PATH, sdkTypesFrom } from "./lib/sdk-client.ts";

const running = process.argv[2];
const server = running ? null : await startServer();
try {
  writeFileSync(SDK_TYPES_PATH, await sdkTypesFrom(`${(running ?? server!.baseUrl).replace(/\/+$/, "")}/openapi.json`));
  console.log(`wrote ${SDK_TYPES_PATH}`);
} finally {
  await server?.stop();
}
