import type { Surface } from "../http/reference-surfaces";

/**
 * GET /docs: the public API's reference (what an API key reaches, and the webhook it receives);
 * GET /docs/dashboard: the dashboard's own API and the operator surface, apart. Both are
 * rendered in the browser by Scalar from their part of /openapi.json (`?surface=`), with code
 * snippets and a "Test Request" console. Its script is bundled with the dashboard's static assets
 * (web/vite.config.ts copies it to /docs-assets/scalar.js), and every option that would reach a
 * third party is off (fonts, telemetry, the request proxy, the AI agent), so it works offline.
 */
const CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: "never",
  documentDownloadType: "json",
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  // The snippets a customer of this API reaches for; the SDK's TypeScript samples come from the document.
  hiddenClients: {
    c: true,
    clojure: true,
    csharp: true,
    dart: true,
    fsharp: true,
    go: false,
    http: true,
    java: true,
    julia: true,
    kotlin: true,
    objc: true,
    ocaml: true,
    php: true,
    powershell: true,
    r: true,
    ruby: true,
    rust: true,
    swift: true,
  },
};

/**
 * The guide's tables (modes, errors, limits), laid out by their content: Scalar gives them equal
 * fixed columns and breaks words anywhere, which squeezed the modes table into "mo de" and
 * "so ur ce s" in the narrow guide column. Here a word is never broken; a table wider than its
 * column scrolls sideways instead. More specific than Scalar's own rule, which is injected later.
 */
const TABLE_CSS = `html body .scalar-app .markdown table{table-layout:auto;display:block;overflow-x:auto}
html body .scalar-app .markdown th,html body .scalar-app .markdown td{word-break:normal;overflow-wrap:normal;hyphens:none;padding:6px 10px}`;

const PAGES = {
  public: { title: "Deep Research API reference", url: "/openapi.json?surface=public", preferredSecurityScheme: "apiKey" },
  dashboard: { title: "Deep Research dashboard API reference", url: "/openapi.json?surface=dashboard", preferredSecurityScheme: "jwt" },
} satisfies Record<Surface, { title: string; url: string; preferredSecurityScheme: string }>;

/** The reference page of one surface. */
export function docsHtml(surface: Surface): string {
  const page = PAGES[surface];
  const configuration = {
    ...CONFIGURATION,
    url: page.url,
    authentication: { preferredSecurityScheme: page.preferredSecurityScheme },
    metaData: { title: page.title },
  };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.title}</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
:root{--scalar-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,monospace}
${TABLE_CSS}</style>
</head><body>
<div id="app"><p style="padding:2rem">Loading the API reference… (<a href="${page.url}">openapi.json</a>)</p></div>
<script src="/docs-assets/scalar.js"></script>
<script>Scalar.createApiReference("#app", ${JSON.stringify(configuration)});</script>
</body></html>`;
}
