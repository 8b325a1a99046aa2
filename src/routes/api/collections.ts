import { createRouter, JWT_SECURITY } from "../../http/openapi";
import { jwtAuth } from "../../middleware/jwt-auth";
import { addCollectionRoutes } from "../collection-routes";

/** The dashboard's view of the same collections as /v1/collections, under a JWT. */
export const collectionRoutes = createRouter();
// Mounted at /api: the guard covers /collections paths only, never other /api paths.
collectionRoutes.use("/collections", jwtAuth);
collectionRoutes.use("/collections/*", jwtAuth);
addCollectionRoutes(collectionRoutes, { tags: ["Collections"], security: JWT_SECURITY });
