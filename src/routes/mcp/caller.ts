import type { OAuthConnectionRow } from "../../db/schema/oauth";
import type { Caller } from "../../db/schema/users";
import type { Deps } from "../../services/deps";

/** Who an MCP request is from (the API-key middleware said so) and what its tools work with. */
export interface McpCaller {
  deps: Deps;
  user: Caller;
  /** The API key, when the caller used one (null for an OAuth connection). */
  apiKeyId: string | null;
  /** The OAuth connection, when the caller used its access token: its research is bounded by its cap and it sees only its own jobs. */
  connection: OAuthConnectionRow | null;
  /** The credential's id (the key's or the connection's): in-flight calls are kept per credential (in-flight.ts). */
  credentialId: string;
  /** This request's origin: a job's status_url and events_url point at /v1/research on it. */
  origin: string;
  /** The Mcp-Session-Id the client sent back, if any (see in-flight.ts). */
  sessionId: string | null;
}
