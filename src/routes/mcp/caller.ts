import type { Caller } from "../../db/schema/users";
import type { Deps } from "../../services/deps";

/** Who an MCP request is from (the API-key middleware said so) and what its tools work with. */
export interface McpCaller {
  deps: Deps;
  user: Caller;
  apiKeyId: string;
  /** This request's origin: a job's status_url and events_url point at /v1/research on it. */
  origin: string;
  /** The Mcp-Session-Id the client sent back, if any (see in-flight.ts). */
  sessionId: string | null;
}
