import { createRouter, JWT_SECURITY } from "../../http/openapi";
import { addResearchRoutes, type ResearchSurface } from "../research-routes";
import { addPlanRoute } from "../v1/plans";

/** The dashboard's playground: the same engine, charges and job routes as /v1/research, under a JWT. */
export const playgroundRoutes = createRouter();

const surface: ResearchSurface = {
  origin: "playground",
  basePath: "/api/playground/research",
  tags: ["Playground"],
  security: JWT_SECURITY,
  submitSummary: "Research a question (playground)",
  operationNoun: "PlaygroundResearch",
  surfaceNote:
    "The dashboard's copy of the `/v1/research` operation, authenticated with an access token; it reaches any of the account's jobs, including those its API keys started.",
};
addResearchRoutes(playgroundRoutes, surface);
addPlanRoute(playgroundRoutes, surface);
