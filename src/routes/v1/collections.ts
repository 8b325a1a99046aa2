import { API_KEY_SECURITY, createRouter } from "../../http/openapi";
import { addCollectionRoutes } from "../collection-routes";

export const v1CollectionRoutes = createRouter();
addCollectionRoutes(v1CollectionRoutes, { tags: ["Collections"], security: API_KEY_SECURITY, operationQualifier: "", surfaceNote: "" });
