import { expect } from "vitest";
import { adminUser, call, createKey, json, signupUser, type TestUser } from "../helpers";

export interface Doc {
  url: string;
  title: string;
  text: string;
  domain?: string;
}

/** A small, real corpus on two domains: enough for the engine to find, read and cite. */
export const CORPUS: Doc[] = [
  {
    url: "https://history.example.org/tariff-of-1828",
    title: "The Tariff of 1828",
    text:
      "The Tariff of 1828 was a protective tariff passed by the Congress of the United States. Its opponents in the South called it the Tariff of Abominations. " +
      "It raised duties on imported manufactured goods to protect northern industry. South Carolina argued the tariff was unconstitutional and threatened nullification. " +
      "John C. Calhoun anonymously wrote the South Carolina Exposition and Protest against the tariff.",
  },
  {
    url: "https://history.example.org/nullification-crisis",
    title: "Nullification Crisis",
    text:
      "The Nullification Crisis was a confrontation in 1832 and 1833 between South Carolina and the federal government. " +
      "South Carolina declared the federal tariffs of 1828 and 1832 null and void within the state. President Andrew Jackson threatened to use force. " +
      "The Compromise Tariff of 1833, proposed by Henry Clay, gradually lowered the rates and ended the crisis.",
  },
  {
    url: "https://econ.example.com/smoot-hawley",
    title: "Smoot-Hawley Tariff Act",
    text:
      "The Smoot-Hawley Tariff Act of 1930 raised United States tariffs on over 20,000 imported goods. " +
      "Economists argue that it worsened the Great Depression by provoking retaliatory tariffs from trading partners. " +
      "World trade fell by roughly two thirds between 1929 and 1934.",
  },
  {
    url: "https://econ.example.com/mckinley-tariff",
    title: "McKinley Tariff",
    text:
      "The McKinley Tariff of 1890 raised the average duty on imports to almost fifty percent. It was authored by William McKinley, then a congressman from Ohio. " +
      "The tariff was unpopular with consumers and contributed to Republican losses in the 1890 elections.",
  },
];

let loaded = false;
/** Loads CORPUS through the admin endpoint once per test file. */
export async function ensureCorpus(): Promise<TestUser> {
  const admin = await adminUser();
  if (!loaded) {
    const response = await call("/api/admin/corpus", { token: admin.accessToken, body: { documents: CORPUS } });
    expect(response.status).toBe(200);
    loaded = true;
  }
  return admin;
}

export interface ApiCaller extends TestUser {
  key: string;
}

export async function apiCaller(): Promise<ApiCaller> {
  const user = await signupUser();
  const key = await createKey(user);
  return { ...user, key: key.plaintext };
}

export async function research(caller: ApiCaller, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return call("/v1/research", { token: caller.key, body, headers });
}

/** Polls GET /v1/research/{id} until the job is terminal. */
export async function waitForTerminal(caller: ApiCaller, id: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await call(`/v1/research/${id}`, { token: caller.key });
    expect(response.status).toBe(200);
    const body = await json(response);
    if (["succeeded", "failed", "cancelled"].includes(body.status)) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`job ${id} not terminal after ${timeoutMs} ms`);
}
