import { createRoute, z } from "@hono/zod-openapi";
import { ApiError } from "../../lib/errors";
import { createRouter, errorResponses, IdParam, JWT_SECURITY, jsonBody, jsonResponse, noBody } from "../../http/openapi";
import { jwtAuth } from "../../middleware/jwt-auth";
import { apiKeyDto, createApiKey, listApiKeys, resetApiKey, revokeApiKey } from "../../services/api-keys";
import { ApiKeyDto, CreatedKey, CreateKeyBody } from "../account-schemas";

const tags = ["API keys"];
export const keyRoutes = createRouter();
keyRoutes.use("*", jwtAuth);

keyRoutes.openapi(
  createRoute({
    method: "get",
    path: "/",
    tags,
    summary: "List your live API keys (never the plaintext)",
    security: JWT_SECURITY,
    responses: { 200: jsonResponse(z.array(ApiKeyDto), "Keys, newest first"), ...errorResponses("unauthorized") },
  }),
  async (c) => c.json((await listApiKeys(c.var.deps.db, c.var.user.id)).map(apiKeyDto), 200),
);

keyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/",
    tags,
    summary: "Create an API key; the plaintext is shown only in this response",
    security: JWT_SECURITY,
    request: { body: jsonBody(CreateKeyBody) },
    responses: { 200: jsonResponse(CreatedKey, "The new key"), ...errorResponses("invalid_request", "unauthorized") },
  }),
  async (c) => {
    const { row, plaintext } = await createApiKey(c.var.deps.db, c.var.user.id, c.req.valid("json").name || null);
    return c.json({ ...apiKeyDto(row), plaintext }, 200);
  },
);

keyRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/{id}",
    tags,
    summary: "Revoke an API key (it answers 401 from now on)",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: noBody("Revoked"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => {
    if (!(await revokeApiKey(c.var.deps.db, c.var.user.id, c.req.valid("param").id))) throw ApiError.notFound("API key");
    return c.body(null, 200);
  },
);

keyRoutes.openapi(
  createRoute({
    method: "post",
    path: "/{id}/reset",
    tags,
    summary: "Replace a key's secret; the old plaintext stops working at once",
    security: JWT_SECURITY,
    request: { params: IdParam },
    responses: { 200: jsonResponse(CreatedKey, "The key with its new plaintext"), ...errorResponses("invalid_request", "unauthorized", "not_found") },
  }),
  async (c) => {
    const reset = await resetApiKey(c.var.deps.db, c.var.user.id, c.req.valid("param").id);
    if (!reset) throw ApiError.notFound("API key");
    return c.json({ ...apiKeyDto(reset.row), plaintext: reset.plaintext }, 200);
  },
);
