import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { createRouter, errorResponses, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { apiKeyDto, createApiKey, listApiKeys, resetApiKey, revokeApiKey } from "../../services/api-keys";
import { ApiKeyDto, CreatedKey, CreateKeyBody } from "../account-schemas";
import { apiKeyExample, createdKeyExample } from "../account-examples";

const tags = ["API keys"];
export const keyRoutes = createRouter();

keyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    operationId: "listApiKeys",
    tags,
    summary: "List your API keys",
    description:
      "Lists the account's API keys that are not revoked, newest first, with their names, prefixes and when they were last used. The full key is never shown again after it was created or reset.",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(z.array(ApiKeyDto), "Keys, newest first", [apiKeyExample]), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json((await listApiKeys(c.get("deps").db, c.get("user").id)).map(apiKeyDto), 200),
);

keyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/",
    operationId: "createApiKey",
    tags,
    summary: "Create an API key",
    description:
      "Creates a key for the public API (`Authorization: Bearer dr_live_...` on `/v1`). Its full text (`plaintext`) is in this answer only: store it in your secrets now. A key spends the account's credits; revoke it if it leaks.",
    security: JWT_SECURITY,
    request: { body: jsonBody(CreateKeyBody, { name: "ci server" }) },
    responses: { 200: jsonResponse(CreatedKey, "The new key", createdKeyExample), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const { row, plaintext } = await createApiKey(c.get("deps").db, c.get("user").id, c.req.valid("json").name || null);
    return c.json({ ...apiKeyDto(row), plaintext }, 200);
  },
);

keyRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/{id}",
    operationId: "revokeApiKey",
    tags,
    summary: "Revoke an API key",
    description:
      "Revokes a key at once: calls with it answer 401 `unauthorized` from now on, and it leaves the list. Jobs it already started go on. A revoked or unknown key is 404.",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: noBody("Revoked"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => {
    if (!(await revokeApiKey(c.get("deps").db, c.get("user").id, c.req.valid("param").id))) throw ApiError.notFound("API key");
    return c.body(null, 200);
  },
);

keyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/reset",
    operationId: "resetApiKey",
    tags,
    summary: "Reset an API key's secret",
    description:
      "Rotates a key: it keeps its id and name and gets a new secret and prefix, shown only in this answer. The old text answers 401 from now on. A revoked or unknown key is 404.",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: {
      200: jsonResponse(CreatedKey, "The key with its new plaintext", {
        ...createdKeyExample,
        prefix: "dr_live_q8Hn",
        plaintext: "dr_live_q8HnT2vLw5RkPz7cXe3YbJ9mUa4SdF6G",
      }),
      ...errorResponses("invalid_request", "unauthorized", "not_found"),
    },
  }),
  async (c) => {
    const reset = await resetApiKey(c.get("deps").db, c.get("user").id, c.req.valid("param").id);
    if (!reset) throw ApiError.notFound("API key");
    return c.json({ ...apiKeyDto(reset.row), plaintext: reset.plaintext }, 200);
  },
);
