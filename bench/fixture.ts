// A stand-in for the web on 127.0.0.1: SearXNG's JSON search API and the HTML pages it links to,
// each answer delayed by a latency drawn from a log-normal distribution (p50 `latencyMs`, p99
// `p99Ms`), as real search APIs and sites answer: a constant latency would hide any place where
// one slow task holds up others. A section that needs a known critical path sets p99 = p50 (a
// constant). robots.txt answers at once (404: everything allowed).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const TOPICS = ["tariff", "railroad", "currency", "canal", "telegraph", "harbor", "treaty", "census", "postal", "mint"];

function page(id: number): string {
  const topic = TOPICS[id % TOPICS.length];
  const sentences = Array.from(
    { length: 12 },
    (_, i) => `Report ${id} notes that the ${topic} policy of year ${1800 + ((id * 7 + i) % 120)} changed trade volumes by ${(id * 13 + i * 7) % 97} percent.`,
  );
  return `<!doctype html><html><head><title>Fixture report ${id} on ${topic}</title></head><body>
<nav>Home | About | Contact</nav><header>Fixture Gazette</header>
<main><article><h1>Report ${id}: ${topic}</h1>${sentences.map((s) => `<p>${s}</p>`).join("")}</article></main>
<footer>Fixture footer</footer><script>console.log("ignored")</script></body></html>`;
}

/** A seeded generator (mulberry32), so every run draws the same delays in the same order. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Log-normal delays with the given median and 99th percentile (z = 2.326 at p99). */
export function logNormalDelays(p50Ms: number, p99Ms: number, seed = 1): () => number {
  const random = seededRandom(seed);
  const mu = Math.log(p50Ms);
  const sigma = p99Ms > p50Ms ? Math.log(p99Ms / p50Ms) / 2.326 : 0;
  return () => {
    // Box-Muller: one standard normal draw from two uniforms.
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    return Math.round(Math.exp(mu + sigma * z));
  };
}

/** Starts the fixture; resolves with its base URL and a close function. */
export async function startFixture({ latencyMs = 200, p99Ms = 2000, port = 0, resultsPerQuery = 10 } = {}) {
  // Read once listening: an answer still delayed when the fixture closes must not ask a closed server.
  let listeningPort = 0;
  const portOf = () => listeningPort;
  let counter = 0;
  let delay = logNormalDelays(latencyMs, p99Ms);
  // The gate: pages still answered before reads are held, and the held answers. A test holds
  // reads to keep a job running for as long as it looks at it (state, not a race with a timer).
  let pagesBeforeHold = Infinity;
  let held: (() => void)[] = [];
  const release = () => {
    pagesBeforeHold = Infinity;
    for (const answer of held) answer();
    held = [];
  };
  // What reached "the web": requests answered, and the most in flight at once (a bound upstream
  // of the fixture shows as a ceiling here).
  const load = { served: 0, inFlight: 0, maxInFlight: 0 };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fixture");
    if (!url.pathname.startsWith("/control/")) {
      load.inFlight += 1;
      load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
      res.once("close", () => {
        load.inFlight -= 1;
        load.served += 1;
      });
    }
    if (url.pathname === "/robots.txt") return res.writeHead(404).end();
    // POST /control/hold?after=N: answer N more pages, then hold every read; POST /control/release.
    if (req.method === "POST" && url.pathname === "/control/hold") {
      pagesBeforeHold = Number(url.searchParams.get("after") ?? 0);
      return res.writeHead(204).end();
    }
    if (req.method === "POST" && url.pathname === "/control/release") {
      release();
      return res.writeHead(204).end();
    }
    const answer = () => {
      if (url.pathname === "/search") {
        const q = url.searchParams.get("q") ?? "";
        const base = [...q].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7) % 1000;
        const results = Array.from({ length: resultsPerQuery }, (_, i) => {
          const id = base + i * 17 + counter;
          return {
            url: `http://127.0.0.1:${portOf()}/page/${id}`,
            title: `Fixture report ${id} on ${TOPICS[id % TOPICS.length]}`,
            content: `Report ${id} on ${q}`,
            score: 1 - i / 20,
          };
        });
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ query: q, results }));
        return;
      }
      const match = /^\/page\/(\d+)$/.exec(url.pathname);
      if (match) return res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page(Number(match[1])));
      res.writeHead(404).end();
    };
    if (url.pathname.startsWith("/page/")) {
      // A held read is answered at release, unless its reader gave up on it meanwhile.
      if (pagesBeforeHold <= 0) return void held.push(() => res.destroyed || answer());
      pagesBeforeHold -= 1;
    }
    setTimeout(answer, delay());
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  listeningPort = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${portOf()}`,
    /** Answers from now on with this latency distribution (p99 = p50: a constant). */
    latency(p50: number, p99: number) {
      delay = logNormalDelays(p50, p99);
    },
    /** How many page reads are held now (a test waits on this: the job is then surely mid-wave). */
    heldReads: () => held.length,
    /** Requests answered and the most in flight at once since the last call (which starts a new count). */
    takeLoad() {
      const taken = { served: load.served, maxInFlight: load.maxInFlight };
      load.served = 0;
      load.maxInFlight = load.inFlight;
      return taken;
    },
    /** Makes later queries return new pages (so the shared page cache does not flatter a run). */
    freshPages() {
      counter += 100_000;
    },
    /** Answers every held read and stops holding (as POST /control/release). */
    release,
    close: () => {
      release();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Fixture = Awaited<ReturnType<typeof startFixture>>;
