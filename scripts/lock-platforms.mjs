#!/usr/bin/env node
// The npm registry reachable here has no macOS or Windows builds of workerd, so `npm install`
// leaves them out of package-lock.json, and `npm ci` then rejects the lock as out of sync with
// workerd's optionalDependencies. This adds the missing entries beside each linux build (same
// version and shape); npm only validates them and never fetches a build for another platform.
// Run after any `npm install` that changes wrangler or the vitest plugin: node scripts/lock-platforms.mjs
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORMS = { "darwin-64": ["darwin", "x64"], "darwin-arm64": ["darwin", "arm64"], "windows-64": ["win32", "x64"] };
const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const added = [];
for (const [key, linux] of Object.entries(lock.packages)) {
  if (!key.endsWith("@cloudflare/workerd-linux-64")) continue;
  const base = key.slice(0, -"workerd-linux-64".length);
  for (const [name, [os, cpu]] of Object.entries(PLATFORMS)) {
    if (lock.packages[`${base}workerd-${name}`]) continue;
    lock.packages[`${base}workerd-${name}`] = {
      version: linux.version,
      resolved: `https://registry.npmjs.org/@cloudflare/workerd-${name}/-/workerd-${name}-${linux.version}.tgz`,
      cpu: [cpu],
      ...(linux.dev ? { dev: true } : {}),
      ...(linux.license ? { license: linux.license } : {}),
      optional: true,
      os: [os],
      ...(linux.engines ? { engines: linux.engines } : {}),
    };
    added.push(`${base}workerd-${name}`);
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.join(", ")}` : "lock already complete");
