import createClient from "openapi-fetch";
import type { paths } from "./schema";

/** The typed client of our own public API (types generated from /openapi.json: npm run web:client). */
export const api = createClient<paths>({ baseUrl: "" });
