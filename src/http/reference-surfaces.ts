/**
 * One document, two readers. /openapi.json describes every endpoint (the spec's contract; the
 * dashboard's client is generated from it). The reference pages show each reader only what they
 * can call: /docs the public API (what an API key reaches, the webhook it receives), /docs/dashboard
 * the dashboard's own API and, in a group of its own, the operator surface. A surface is a
 * filter on the whole document, so the pages cannot drift from it.
 */

type Document = Record<string, any>;

export const SURFACES = ["public", "dashboard"] as const;
export type Surface = (typeof SURFACES)[number];

export function isSurface(value: string): value is Surface {
  return (SURFACES as readonly string[]).includes(value);
}

const ADMIN_TAG = "Admin";

const KEEPS: Record<Surface, (path: string) => boolean> = {
  public: (path) => path.startsWith("/v1/") || path === "/healthz",
  dashboard: (path) => path.startsWith("/api/"),
};

const DASHBOARD_DESCRIPTION = `The dashboard's own API (\`/api\`), authenticated with a session's access token (JWT), and the operator surface (\`/api/admin\`, admins only).

It serves this service's dashboard and has no version segment. To integrate with the service, use the public API with an API key: its reference is at [/docs](/docs).`;

/** The part of `document` one surface shows: its paths, the components they reach, the tags they use. */
export function documentForSurface(document: Document, surface: Surface): Document {
  const paths = Object.fromEntries(Object.entries(document.paths ?? {}).filter(([path]) => KEEPS[surface](path)));
  const webhooks = surface === "public" ? document.webhooks : undefined;
  const kept = { paths, ...(webhooks ? { webhooks } : {}) };
  const schemas = reachableSchemas(kept, document.components?.schemas ?? {});
  const usedTags = new Set(operationsOf(kept).flatMap((operation) => operation.tags ?? []));
  const usedSchemes = new Set(operationsOf(kept).flatMap((operation) => (operation.security ?? []).flatMap((requirement: object) => Object.keys(requirement))));
  const tags = (document.tags ?? []).filter((tag: { name: string }) => usedTags.has(tag.name));
  const part: Document = {
    ...document,
    info:
      surface === "public"
        ? document.info
        : { ...document.info, title: `${document.info.title}: dashboard and operator surface`, description: DASHBOARD_DESCRIPTION },
    tags,
    paths,
    components: {
      ...document.components,
      schemas: Object.fromEntries(Object.entries(document.components?.schemas ?? {}).filter(([name]) => schemas.has(name))),
      securitySchemes: Object.fromEntries(Object.entries(document.components?.securitySchemes ?? {}).filter(([name]) => usedSchemes.has(name))),
    },
  };
  if (webhooks) part.webhooks = webhooks;
  else delete part.webhooks;
  if (surface === "dashboard") part["x-tagGroups"] = dashboardTagGroups(tags);
  return part;
}

/** Scalar's sidebar groups: the account's operations first, the operator surface apart and last. */
function dashboardTagGroups(tags: { name: string }[]) {
  return [
    { name: "Your account", tags: tags.filter((tag) => tag.name !== ADMIN_TAG).map((tag) => tag.name) },
    { name: "Operator surface (admins only)", tags: [ADMIN_TAG] },
  ];
}

function operationsOf(kept: { paths: Document; webhooks?: Document }): Document[] {
  return [...Object.values(kept.paths), ...Object.values(kept.webhooks ?? {})].flatMap((item: Document) =>
    Object.values(item).filter((value) => typeof value === "object"),
  );
}

/** Names of the component schemas `root` refers to, directly or through other components. */
function reachableSchemas(root: unknown, schemas: Document): Set<string> {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/schemas/")) {
        const name = value.slice("#/components/schemas/".length);
        if (!found.has(name)) {
          found.add(name);
          visit(schemas[name]);
        }
      } else visit(value);
    }
  };
  visit(root);
  return found;
}
