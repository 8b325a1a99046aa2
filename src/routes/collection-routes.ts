import { peek, pageWithLink } from "../http/next-page";
import { createRoute, z } from "@hono/zod-openapi";
import { type createRouter, errorResponses, jsonBody, jsonResponse, pageResponse } from "../http/openapi";
import { PagingQuery } from "../lib/paging";
import {
  CollectionDto,
  collectionDto,
  CreateCollectionSchema,
  createCollection,
  deleteCollection,
  listCollections,
  ownCollection,
  UpdateCollectionSchema,
  updateCollection,
} from "../research/service";
import { addDocumentRoutes } from "./collection-document-routes";
import { collectionExample, createCollectionExample, updateCollectionExample } from "./collection-examples";
import { CollectionParam, type CollectionSurface, Deleted } from "./collection-schemas";

/** The collection routes (then their documents', collection-document-routes.ts): the same under /v1 (API key) and /api (JWT, for the dashboard). */
export function addCollectionRoutes(router: ReturnType<typeof createRouter>, surface: CollectionSurface): void {
  const { tags, security, operationQualifier: q } = surface;
  const note = surface.surfaceNote ? ` ${surface.surfaceNote}` : "";
  router.openapi(
    createRoute({
      method: "post",
      path: "/collections",
      operationId: `create${q}Collection`,
      tags,
      security,
      summary: "Create a collection of your own documents",
      description:
        "Creates an empty collection. Add documents to it, then name its id in a research request's `collections` to research them (alone, or with `web: true` beside the web). Free." +
        note,
      request: { body: jsonBody(CreateCollectionSchema, createCollectionExample) },
      responses: {
        200: jsonResponse(CollectionDto, "The collection", { ...collectionExample, document_count: 0, bytes: 0, updated_at: collectionExample.created_at }),
        ...errorResponses("invalid_request", "unauthorized"),
      },
    }),
    async (c) => c.json(await createCollection(c.get("deps").db, c.get("user").id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections",
      operationId: `list${q}Collections`,
      tags,
      security,
      summary: "List your collections",
      description: `Lists your collections with their document counts and sizes, newest first; page with \`limit\` and \`offset\`. Free.${note}`,
      request: { query: PagingQuery },
      responses: {
        200: pageResponse(z.array(CollectionDto), "Collections, newest first", [collectionExample]),
        ...errorResponses("invalid_request", "unauthorized"),
      },
    }),
    async (c) => {
      const page = c.req.valid("query");
      return c.json(pageWithLink(c, await listCollections(c.get("deps").db, c.get("user").id, peek(page)), page), 200);
    },
  );

  router.openapi(
    createRoute({
      method: "get",
      path: "/collections/{id}",
      operationId: `get${q}Collection`,
      tags,
      security,
      summary: "Get a collection",
      description: `Reads one of your collections: its name, description, document count and size. Free.${note}`,
      request: { params: CollectionParam },
      responses: { 200: jsonResponse(CollectionDto, "The collection", collectionExample), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => c.json(collectionDto(await ownCollection(c.get("deps").db, c.get("user").id, c.req.valid("param").id)), 200),
  );

  router.openapi(
    createRoute({
      method: "patch",
      path: "/collections/{id}",
      operationId: `update${q}Collection`,
      tags,
      security,
      summary: "Update a collection",
      description: `Changes a collection's name, description or both; fields left out stay as they are. Free.${note}`,
      request: { params: CollectionParam, body: jsonBody(UpdateCollectionSchema, updateCollectionExample) },
      responses: {
        200: jsonResponse(CollectionDto, "The collection", {
          ...collectionExample,
          description: updateCollectionExample.description,
          updated_at: "2026-11-24T09:12:40.118Z",
        }),
        ...errorResponses("invalid_request", "unauthorized", "not_found"),
      },
    }),
    async (c) => c.json(await updateCollection(c.get("deps").db, c.get("user").id, c.req.valid("param").id, c.req.valid("json")), 200),
  );

  router.openapi(
    createRoute({
      method: "delete",
      path: "/collections/{id}",
      operationId: `delete${q}Collection`,
      tags,
      security,
      summary: "Delete a collection",
      description:
        "Deletes a collection with all its documents, at once and for good; their storage is freed. Credits paid to add them are not refunded. A job already reading them finishes with what it read. Free." +
        note,
      request: { params: CollectionParam },
      responses: { 200: jsonResponse(Deleted, "Deleted", { deleted: true }), ...errorResponses("invalid_request", "unauthorized", "not_found") },
    }),
    async (c) => {
      await deleteCollection(c.get("deps").db, c.get("user").id, c.req.valid("param").id);
      return c.json({ deleted: true as const }, 200);
    },
  );

  addDocumentRoutes(router, surface);
}
