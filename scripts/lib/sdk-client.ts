import type { OpenAPI3 } from "openapi-typescript";
import { apiTypesFrom } from "./web-client.ts";

/** The SDK's generated types (sdk/src/schema.d.ts); a test fails when they drift from /openapi.json. */
export const SDK_TYPES_PATH = "sdk/src/schema.d.ts";

/** What a customer's key reaches: every /v1 operation, and the public price lists the CLI reads. */
export function isPublicPath(path: string): boolean {
  return path.startsWith("/v1/") || path === "/api/billing/modes" || path === "/api/billing/op-prices";
}

/**
 * The document narrowed to the public surface: its paths, and only the components they reach
 * (followed through nested $refs), so the published types name no dashboard or admin shape.
 */
export function publicSurface(document: OpenAPI3): OpenAPI3 {
  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([path]) => isPublicPath(path)));
  const components = (document.components ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const kept: Record<string, Record<string, unknown>> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const ref = key === "$ref" && typeof value === "string" ? /^#\/components\/([^/]+)\/(.+)$/.exec(value) : null;
      if (ref) {
        const [, kind, name] = ref as unknown as [string, string, string];
        if (kept[kind]?.[name] === undefined && components[kind]?.[name] !== undefined) {
          (kept[kind] ??= {})[name] = components[kind]![name];
          visit(components[kind]![name]);
        }
      } else visit(value);
    }
  };
  visit(paths);
  // Security schemes are named by operations, not $ref'd: keep them whole.
  if (components.securitySchemes) kept.securitySchemes = components.securitySchemes;
  return { ...document, paths, components: kept, webhooks: undefined } as OpenAPI3;
}

export function sdkTypesFrom(openapiUrl: string): Promise<string> {
  return apiTypesFrom(openapiUrl, { script: "sdk:client", select: publicSurface });
}
