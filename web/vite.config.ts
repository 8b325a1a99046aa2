import { readFileSync } from "node:fs";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";

/** The API reference's renderer (Scalar), served from our own origin so /docs works offline. */
function apiReferenceAsset(): Plugin {
  return {
    name: "api-reference-asset",
    apply: "build",
    generateBundle() {
      // The package exports no path to its browser bundle, so it is read from where npm puts it.
      const path = join(import.meta.dirname, "..", "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");
      this.emitFile({ type: "asset", fileName: "docs-assets/scalar.js", source: readFileSync(path) });
    },
  };
}

// The dashboard: a single-page app served by the same Worker as static assets (wrangler.toml [assets]).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), apiReferenceAsset()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
});
