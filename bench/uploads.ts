// npm run bench:uploads: what one uploaded file costs the service started the way `npm start`
// does (issue 26). For each case (PDFs of 1,000 / 5,000 / 20,000 pages, a flate bomb) a fresh
// server is started; the file is sent to POST /v1/collections/{id}/documents while GET /healthz
// is asked every 100 ms, and the run reports the time to the answer, its status and error code,
// the workerd processes' peak resident memory (VmRSS sampled every 50 ms, and VmHWM), and the
// health checks' latency meanwhile (what every other caller of the isolate waits).
// "inflates-56mb" is eight pages whose contents inflate to 7 MB each, under every bound (the cost of
// counting on a file it accepts). Issue 39's bombs that walked around the issue-26 scan: "indirect"
// (400 MB behind /Filter 5 0 R), "runlength" (64 MB from 1 MB). BENCH_UPLOADS=1000,flate picks cases; BENCH_UPLOAD_TIMEOUT_S bounds an upload (default 150 s).
// To measure other code, run it from that checkout: `cd ../before && tsx ../wt-uploads/bench/uploads.ts`
// (the server is started from the working directory).
import { readdirSync, readFileSync } from "node:fs";
import { startServer, type StartedServer } from "../test/e2e/server.ts";
import { deflatedZeros, flatePdf, pagedPdf, pdfOf, runLengthZeros } from "../test/collections/pdf.ts";
import { machineLoad, measuredCommit, percentile, writeResults } from "./report.ts";

const CASES = (process.env.BENCH_UPLOADS ?? "1000,5000,20000,flate").split(",");
const TIMEOUT_MS = Number(process.env.BENCH_UPLOAD_TIMEOUT_S ?? 150) * 1000;
const lines: string[] = [];
const log = (line = "") => {
  console.log(line);
  lines.push(line);
};

/** The workerd processes of a process group: pid → [VmRSS, VmHWM] in MB. */
function workerdMemory(processGroup: number): Map<number, [number, number]> {
  const sizes = new Map<number, [number, number]>();
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== processGroup || !stat.includes("(workerd)")) continue;
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
      sizes.set(Number(pid), [Math.round(kb("VmRSS") / 1024), Math.round(kb("VmHWM") / 1024)]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return sizes;
}

/** Eight pages whose contents inflate to 7 MB each (56 MB in all): under the bounds, so PDF.js inflates every byte, counted. */
async function compressedPdf(): Promise<Uint8Array> {
  const content = await deflatedZeros(7 * 1024 * 1024);
  const pages = 8;
  return pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${Array.from({ length: pages }, (_, i) => `${3 + 2 * i} 0 R`).join(" ")}] /Count ${pages} >>`,
    ...Array.from({ length: pages }, (_, i) => [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${4 + 2 * i} 0 R >>`,
      { dictionary: "<< /Filter /FlateDecode >>", data: content },
    ]).flat(),
  ]);
}

/** A one-page PDF whose content is this stream, with `extra` objects after it (numbered from 5). */
const contentPdf = (dictionary: string, data: Uint8Array, extra: string[] = []) =>
  pdfOf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << >> >>",
    { dictionary, data },
    ...extra,
  ]);

async function fileOf(name: string): Promise<File> {
  if (name === "flate") return new File([flatePdf(await deflatedZeros(400 * 1024 * 1024))], "bomb.pdf", { type: "application/pdf" });
  if (name === "indirect") {
    return new File([contentPdf("<< /Filter 5 0 R >>", await deflatedZeros(400 * 1024 * 1024), ["/FlateDecode"])], "indirect.pdf", { type: "application/pdf" });
  }
  if (name === "runlength")
    return new File([contentPdf("<< /Filter /RunLengthDecode >>", runLengthZeros(64 * 1024 * 1024))], "rl.pdf", { type: "application/pdf" });
  if (name === "inflates-56mb") return new File([await compressedPdf()], "dense.pdf", { type: "application/pdf" });
  const pages = Number(name);
  return new File([pagedPdf(pages)], `report-${pages}.pdf`, { type: "application/pdf" });
}

async function account(server: StartedServer): Promise<{ key: string; collection: string }> {
  const signup = (await (await server.post("/api/auth/signup", { email: `bench-${Date.now()}@example.com`, password: "bench password 1" })).json()) as any;
  const key = ((await (await server.post("/api/keys", { name: "bench" }, signup.access_token)).json()) as any).plaintext as string;
  const collection = ((await (await server.post("/v1/collections", { name: "Uploads" }, key)).json()) as any).id as string;
  return { key, collection };
}

async function measure(name: string) {
  const file = await fileOf(name);
  const server = await startServer({ timeoutMs: 180_000 });
  try {
    const { key, collection } = await account(server);
    const before = workerdMemory(server.processGroup);
    const baseline = Math.max(...[...before.values()].map(([rss]) => rss));
    let peak = baseline;
    let running = true;
    const sampler = (async () => {
      while (running) {
        for (const [rss] of workerdMemory(server.processGroup).values()) peak = Math.max(peak, rss);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const health: number[] = [];
    let healthFailures = 0;
    const prober = (async () => {
      while (running) {
        const start = performance.now();
        try {
          const response = await fetch(`${server.baseUrl}/healthz`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
          await response.arrayBuffer();
          if (!response.ok) healthFailures++;
        } catch {
          healthFailures++;
        }
        health.push(performance.now() - start);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const form = new FormData();
    form.append("file", file);
    const start = performance.now();
    let status = "timeout";
    let code = "";
    try {
      const response = await fetch(`${server.baseUrl}/v1/collections/${collection}/documents`, {
        method: "POST",
        headers: { Authorization: `Bearer ${key}` },
        body: form,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = String(response.status);
      const text = await response.text();
      try {
        code = JSON.parse(text).error?.code ?? (JSON.parse(text).ingested !== undefined ? `ingested ${JSON.parse(text).ingested}` : "");
      } catch {
        code = `not JSON: ${text.slice(0, 60).replace(/\s+/g, " ")}`;
      }
    } catch (error) {
      status = (error as Error).name === "TimeoutError" ? `no answer in ${TIMEOUT_MS / 1000} s` : `failed (${(error as Error).message})`;
    }
    const seconds = (performance.now() - start) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 300));
    running = false;
    await Promise.all([sampler, prober]);
    const hwm = Math.max(0, ...[...workerdMemory(server.processGroup).values()].map(([, high]) => high));
    const alive =
      workerdMemory(server.processGroup).size > 0 &&
      (await fetch(`${server.baseUrl}/healthz`).then(
        (r) => r.ok,
        () => false,
      ));
    const row =
      `| ${name === "flate" ? "flate bomb" : /^\d+$/.test(name) ? `${name} pages` : name} | ${(file.size / 1024 / 1024).toFixed(2)} MB | ${seconds.toFixed(1)} s | ${status} ${code} | ` +
      `${baseline} → ${peak} MB (VmHWM ${hwm || "gone"}) | ${percentile(health, 50).toFixed(0)} / ${Math.max(...health).toFixed(0)} ms, ${healthFailures} failed | ${alive ? "yes" : "**no**"} |`;
    log(row);
  } finally {
    await server.stop();
  }
}

log(`# Uploads (issue 26): one file's cost to the service, commit ${measuredCommit()} (${process.cwd()})`);
log();
log(machineLoad());
log();
log("| file | size | answered after | status | workerd RSS before → peak | /healthz p50 / max meanwhile | workerd alive after |");
log("|---|---|---|---|---|---|---|");
for (const name of CASES) await measure(name);
console.log(`\nwritten: ${writeResults(lines, "uploads")}`);
