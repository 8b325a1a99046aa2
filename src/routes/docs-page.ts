/**
 * GET /docs: a self-contained reference page rendered from /openapi.json in the browser.
 * No CDN assets (Swagger UI and friends load from one), so it works offline and under a strict CSP.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Deep Research API reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1d2433;background:#fafbfc}
header{background:#1d2433;color:#fff;padding:16px 32px}main{max-width:1000px;margin:0 auto;padding:16px 32px}
h2{margin-top:32px;border-bottom:1px solid #dde;padding-bottom:4px}
details{background:#fff;border:1px solid #dde;border-radius:6px;margin:8px 0;padding:8px 12px}
summary{cursor:pointer;font-family:ui-monospace,monospace}.m{display:inline-block;width:64px;font-weight:700}
.get{color:#0a7}.post{color:#06c}.put{color:#a60}.delete{color:#c22}
pre{background:#f3f4f7;padding:8px;border-radius:4px;overflow:auto;font-size:13px}.muted{color:#667}
</style></head><body><header><strong>Deep Research API</strong> <span id="v"></span> &middot; <a style="color:#9cf" href="/openapi.json">openapi.json</a></header>
<main id="root"><p class="muted">Loading the OpenAPI document...</p></main>
<script>
const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c]));
const deref = (doc, s) => s && s.$ref ? doc.components.schemas[s.$ref.split("/").pop()] : s;
const show = (doc, s) => esc(JSON.stringify(deref(doc, s), null, 2));
fetch("/openapi.json").then((r) => r.json()).then((doc) => {
  document.getElementById("v").textContent = "v" + doc.info.version;
  const groups = {};
  for (const [path, ops] of Object.entries(doc.paths)) for (const [method, op] of Object.entries(ops)) {
    (groups[(op.tags || ["Other"])[0]] ??= []).push({ path, method, op });
  }
  let html = "";
  for (const [tag, list] of Object.entries(groups)) {
    html += "<h2>" + esc(tag) + "</h2>";
    for (const { path, method, op } of list) {
      html += '<details><summary><span class="m ' + method + '">' + method.toUpperCase() + "</span>" + esc(path) + ' <span class="muted">' + esc(op.summary) + "</span></summary>";
      if (op.security) html += "<p>Auth: " + esc(op.security.map((s) => Object.keys(s)[0]).join(", ")) + "</p>";
      if (op.parameters?.length) html += "<p>Parameters: " + op.parameters.map((p) => "<code>" + esc(p.name) + "</code> (" + esc(p.in) + ")").join(", ") + "</p>";
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body) html += "<p>Request body</p><pre>" + show(doc, body) + "</pre>";
      for (const [status, res] of Object.entries(op.responses || {})) {
        const schema = res.content?.["application/json"]?.schema;
        html += "<p><strong>" + esc(status) + "</strong> " + esc(res.description) + "</p>" + (schema && status < 300 ? "<pre>" + show(doc, schema) + "</pre>" : "");
      }
      html += "</details>";
    }
  }
  document.getElementById("root").innerHTML = html;
});
</script></body></html>`;
