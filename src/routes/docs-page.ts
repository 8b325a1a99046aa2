/**
 * GET /docs: the API reference, rendered in the browser by Scalar from /openapi.json, with code
 * snippets and a "Test Request" console. Its script is bundled with the dashboard's static assets
 * (web/vite.config.ts copies it to /docs-assets/scalar.js), and every option that would reach a
 * third party is off (fonts, telemetry, the request proxy, the AI agent), so it works offline.
 */
const CONFIGURATION = {
  url: "/openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: "never",
  documentDownloadType: "json",
  defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
  // The snippets a customer of this API reaches for; the SDK's TypeScript samples come from the document.
  hiddenClients: { c: true, clojure: true, csharp: true, dart: true, fsharp: true, go: false, http: true, java: true, julia: true, kotlin: true, objc: true, ocaml: true, php: true, powershell: true, r: true, ruby: true, rust: true, swift: true },
  authentication: { preferredSecurityScheme: "apiKey" },
  metaData: { title: "Deep Research API reference" },
};

export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deep Research API reference</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
:root{--scalar-font:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;--scalar-font-code:ui-monospace,SFMono-Regular,Menlo,monospace}</style>
</head><body>
<div id="app"><p style="padding:2rem">Loading the API reference… (<a href="/openapi.json">openapi.json</a>)</p></div>
<script src="/docs-assets/scalar.js"></script>
<script>Scalar.createApiReference("#app", ${JSON.stringify(CONFIGURATION)});</script>
</body></html>`;
