import { createRouter, JWT_SECURITY } from "../../http/openapi";
import { addCollectionRoutes } from "../collection-routes";

/** The dashboard's view of the same collections as /v1/collections, under a JWT. */
export const collectionRoutes = createRouter();
addCollectionRoutes(collectionRoutes, {
  tags: ["Dashboard collections"],
  security: JWT_SECURITY,
  operationQualifier: "Dashboard",
  surfaceNote: "The dashboard's copy of the `/v1/collections` operation, authenticated with an access token.",
});
