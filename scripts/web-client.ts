// npm run web:client: regenerates the dashboard's typed API client types (web/src/api/schema.d.ts)
// from /openapi.json of the service started the way `npm start` does. A test checks they never drift.
import { writeFileSync } from "node:fs";
import { startServer } from "../test/e2e/server.ts";
import { API_TYPES_PATH, apiTypesFrom } from "./lib/web-client.ts";

const server = await startServer();
try {
  writeFileSync(API_TYPES_PATH, await apiTypesFrom(`${server.baseUrl}/openapi.json`));
  console.log(`wrote ${API_TYPES_PATH}`);
} finally {
  await server.stop();
}
