import { afterEach, describe, expect, it } from "vitest";
import { DeepResearch } from "../../sdk/src/index";
import { fakeService, json } from "./fake-server";

const saved = { key: process.env.DEEP_RESEARCH_API_KEY, baseUrl: process.env.DEEP_RESEARCH_BASE_URL };
let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  process.env.DEEP_RESEARCH_API_KEY = saved.key;
  process.env.DEEP_RESEARCH_BASE_URL = saved.baseUrl;
  if (saved.key === undefined) delete process.env.DEEP_RESEARCH_API_KEY;
  if (saved.baseUrl === undefined) delete process.env.DEEP_RESEARCH_BASE_URL;
  await close?.();
  close = null;
});

describe("the client's configuration", () => {
  it("reads the key and the base URL from DEEP_RESEARCH_API_KEY and DEEP_RESEARCH_BASE_URL when none is passed", async () => {
    const service = await fakeService([json(200, { credits: 500, usd: "5.00" })]);
    close = service.close;
    process.env.DEEP_RESEARCH_API_KEY = "dr_env_key";
    process.env.DEEP_RESEARCH_BASE_URL = `${service.baseUrl}/`;
    const client = new DeepResearch();
    expect(client.baseUrl).toBe(service.baseUrl);
    expect(await client.credits()).toEqual({ credits: 500, usd: "5.00" });
    expect(service.requests[0]!.headers.authorization).toBe("Bearer dr_env_key");
    // What is passed wins over the environment.
    expect(new DeepResearch({ apiKey: "dr_passed", baseUrl: "https://api.example" }).baseUrl).toBe("https://api.example");
  });

  it("without a key anywhere, says where one goes", () => {
    delete process.env.DEEP_RESEARCH_API_KEY;
    expect(() => new DeepResearch()).toThrow(/pass apiKey, or set DEEP_RESEARCH_API_KEY/);
    process.env.DEEP_RESEARCH_API_KEY = "";
    expect(() => new DeepResearch({ baseUrl: "https://api.example" })).toThrow(TypeError);
  });
});
