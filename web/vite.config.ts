import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The dashboard: a single-page app served by the same Worker as static assets (wrangler.toml [assets]).
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
});
