import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CODE_SAMPLES, PYTHON_CODE_SAMPLES } from "../../src/http/code-samples";
import { fakeService, json } from "./fake-server";

/** The dashboard's request, as web/src/quickstart/snippets.ts takes it (the REST fields but `async` and `include_sources`). */
type SnippetRequest = { question: string } & Record<string, unknown>;
type SnippetTarget = { baseUrl: string; apiKey?: string };
// Imported by path: web/ is type-checked by its own tsconfig (DOM, JSX), which the root one would otherwise follow the import into.
const QUICKSTART = "../../web/src/quickstart";
const { pythonSnippet, pythonValue } = (await import(`${QUICKSTART}/snippets.ts`)) as {
  pythonSnippet: (request: SnippetRequest, target: SnippetTarget) => string;
  pythonValue: (value: unknown) => string;
};
const { FIRST_REQUEST, requestSnippets } = (await import(`${QUICKSTART}/quickStartSnippets.ts`)) as {
  FIRST_REQUEST: SnippetRequest;
  requestSnippets: (request: SnippetRequest, target: SnippetTarget) => { label: string; code: string }[];
};

/**
 * The Python samples customers copy: the API reference's (x-codeSamples), the README's, and the
 * dashboard's quick start and "get code". Each is compiled and checked against the Python SDK's sources
 * (test/sdk/check_python_samples.py: the methods, options and result keys it uses exist), as the
 * TypeScript samples are type-checked against the TypeScript SDK (code-samples.test.ts); the
 * dashboard's snippet is also run, against a stand-in service, and sends what curl's sends.
 * The browser tests run the copied snippet against the service itself.
 */

const ROOT = resolve(import.meta.dirname, "../..");
const PYTHON = "/usr/bin/python3"; // Debian's, with httpx (the PATH's pyenv Python has none)
const env = { PATH: process.env.PATH, PYTHONPATH: resolve(ROOT, "sdk-python") };

/** The checker's problems with each sample ({} of empty lists when all is well). */
function check(samples: Record<string, string>): Record<string, string[]> {
  const run = spawnSync(PYTHON, [resolve(ROOT, "test/sdk/check_python_samples.py")], { input: JSON.stringify(samples), encoding: "utf8", env });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Record<string, string[]>;
}

/** Runs a snippet as a script, asynchronously: the stand-in service answers from this process's event loop. */
function runPython(code: string, key: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(PYTHON, ["-c", code], { encoding: "utf8", env: { ...env, DEEP_RESEARCH_API_KEY: key }, timeout: 30_000 }, (error, stdout, stderr) =>
      done({ status: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

const noProblems = (samples: Record<string, string>) => Object.fromEntries(Object.keys(samples).map((label) => [label, []]));

/** A request with every field a snippet writes out, and a question a naive quoting would break. */
const FULL: SnippetRequest = {
  question: `What did Lincoln's "first" message say about tariffs\\duties?\nAnd café prices — in 1861?`,
  mode: "max",
  max_credits: 250,
  max_wallclock_secs: 90,
  include_domains: ["sotu.corpus", "loc.gov"],
  exclude_domains: ["example.com"],
  collections: ["c0ffee00-0000-4000-8000-000000000001"],
  web: true,
  response_schema: {
    type: "object",
    properties: { year: { type: ["integer", "null"] }, tariff: { type: "boolean", default: false }, notes: { type: "array", items: { type: "string" } } },
    required: ["year"],
    additionalProperties: false,
  },
  webhook_url: "https://hooks.example.com/research?x='1'",
};

describe("the Python samples", () => {
  it("the reference has a Python (SDK) sample wherever it has a TypeScript one, and each checks against the Python SDK", { timeout: 60_000 }, () => {
    expect(Object.keys(PYTHON_CODE_SAMPLES).sort()).toEqual(Object.keys(CODE_SAMPLES).sort());
    expect(check({ ...PYTHON_CODE_SAMPLES })).toEqual(noProblems(PYTHON_CODE_SAMPLES));
  });

  it("the README's Python examples check against the Python SDK", { timeout: 60_000 }, () => {
    const readme = readFileSync(resolve(ROOT, "README.md"), "utf8");
    const blocks = Object.fromEntries(
      [...readme.matchAll(/```python\n([\s\S]*?)```/g)].map((match, index) => [`README.md python block ${index + 1}`, match[1]!]),
    );
    expect(Object.keys(blocks).length).toBeGreaterThanOrEqual(1);
    expect(check(blocks)).toEqual(noProblems(blocks));
  });

  it("the dashboard's Python snippet checks against the Python SDK, for the first request and one with every field", { timeout: 60_000 }, () => {
    const target = { baseUrl: "https://research.example.com" };
    const samples = {
      first: pythonSnippet(FIRST_REQUEST, target),
      full: pythonSnippet(FULL, target),
      typed: pythonSnippet({ question: "When?", response_schema: { type: "object" } }, target),
    };
    expect(check(samples)).toEqual(noProblems(samples));
    // The quick start and "get code" show it beside curl, TypeScript and the CLI.
    expect(requestSnippets(FIRST_REQUEST, target).map((snippet) => snippet.label)).toEqual(["curl", "TypeScript (SDK)", "Python (SDK)", "CLI"]);
  });

  it("the check sees a renamed method, option, argument or key, and code that does not compile", { timeout: 60_000 }, () => {
    const wrong = {
      import: "from deep_research import DeepResearchClient",
      method: 'from deep_research import DeepResearch\nclient = DeepResearch()\nclient.research.submit("q")',
      option: 'from deep_research import DeepResearch\nclient = DeepResearch()\nclient.research.run("q", includeDomains=["a"])',
      argument: "from deep_research import DeepResearch\nclient = DeepResearch(apiKey='k')",
      key: 'from deep_research import DeepResearch\nclient = DeepResearch()\nresult = client.research.run("q")\nprint(result["answer"]["txt"])',
      item: 'from deep_research import DeepResearch\nclient = DeepResearch()\nfor job in client.research.list():\n    print(job["brief"])',
      syntax: 'print("q"',
    };
    const problems = check(wrong);
    expect(problems.import).toEqual(["line 1: deep_research has no DeepResearchClient"]);
    expect(problems.method).toEqual(["line 3: client.research has no attribute submit"]);
    expect(problems.option).toEqual(["line 3: client.research.run() takes no option includeDomains"]);
    expect(problems.argument).toEqual(["line 2: DeepResearch(): got an unexpected keyword argument 'apiKey'"]);
    expect(problems.key).toEqual([`line 4: result['answer'] has no key "txt" (ShortAnswer)`]);
    expect(problems.item).toEqual(['line 4: job has no key "brief" (ResearchLogRow)']);
    expect(problems.syntax?.[0]).toMatch(/^does not compile/);
  });

  it("a JSON value written as a Python literal is that value", () => {
    const values = [FULL.response_schema, FULL.question, [1, 2.5, -3e-7, true, false, null, "x"], { nested: [{ a: [] }, {}] }, [], {}];
    const literals = values.map((value) => pythonValue(value));
    const run = spawnSync(PYTHON, ["-c", "import ast, json, sys\nprint(json.dumps([ast.literal_eval(s) for s in json.load(sys.stdin)]))"], {
      input: JSON.stringify(literals),
      encoding: "utf8",
      env,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(values);
  });

  describe("the dashboard's Python snippet, run", () => {
    let close: (() => Promise<void>) | undefined;
    afterEach(() => close?.());

    it("sends what the curl snippet sends (the Python SDK's defaults aside) and prints the answer and the brief", { timeout: 60_000 }, async () => {
      const brief = "Lincoln asked for a tariff [1].";
      const service = await fakeService([
        json(200, {
          id: "job-1",
          status: "succeeded",
          question: FULL.question,
          answer: { text: "Yes", confidence: "high", citations: [0] },
          brief,
          sources: [],
          credits_charged: 15,
        }),
      ]);
      close = service.close;
      const request = { ...FULL, response_schema: undefined };
      const run = await runPython(pythonSnippet(request, { baseUrl: service.baseUrl }), "dr_live_snippet");
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(`Yes ${brief}\n`);
      expect(service.requests).toHaveLength(1);
      const sent = service.requests[0]!;
      expect([sent.method, sent.url, sent.headers.authorization]).toEqual(["POST", "/v1/research", "Bearer dr_live_snippet"]);
      // The curl snippet's body is the request itself; the SDK adds its default include_sources.
      const curlBody = JSON.parse(JSON.stringify(request)) as Record<string, unknown>;
      expect(JSON.parse(sent.body)).toEqual({ ...curlBody, include_sources: true });
    });

    it("a typed request sends its JSON Schema as given, and prints the typed object", { timeout: 60_000 }, async () => {
      const service = await fakeService([
        json(200, { id: "job-2", status: "succeeded", typed: { year: 1861 }, answer: null, brief: "b", sources: [], credits_charged: 15 }),
      ]);
      close = service.close;
      const run = await runPython(
        pythonSnippet({ question: FULL.question, mode: "lite", response_schema: FULL.response_schema }, { baseUrl: service.baseUrl }),
        "dr_live_snippet",
      );
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe("{'year': 1861}\n");
      expect(JSON.parse(service.requests[0]!.body)).toMatchObject({ question: FULL.question, mode: "lite", response_schema: FULL.response_schema });
    });
  });
});
