import { describe, expect, inject, it } from "vitest";
import { newAccount, serverClient } from "./server";

const server = serverClient(inject("server"));

/**
 * The questions the dashboard suggests are answered on the corpus `npm start` seeds (issue 38): a
 * suggestion that found nothing would teach a newcomer that the service does not work. Each is
 * run as the playground runs it and must get a cited short answer from the demo corpus.
 */
describe("what research searches, on a fresh npm start", () => {
  it("is the seeded State of the Union corpus, and every suggested question gets a cited short answer from it", async () => {
    const { accessToken } = await newAccount(server, "search-source");
    const response = await fetch(`${server.baseUrl}/api/dashboard/search-source`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(response.status).toBe(200);
    const source = (await response.json()) as {
      provider: string;
      corpus: { documents: number; domains: { domain: string; documents: number; description: string | null }[] };
      example_questions: string[];
    };
    expect(source.provider).toBe("corpus");
    expect(source.corpus.domains).toEqual([
      { domain: "sotu.corpus", documents: source.corpus.documents, description: expect.stringMatching(/State of the Union/) },
    ]);
    expect(source.corpus.documents).toBeGreaterThan(200);
    expect(source.example_questions.length).toBeGreaterThanOrEqual(3);

    for (const question of source.example_questions) {
      const answered = await server.post("/api/playground/research", { question, mode: "lite" }, accessToken);
      expect(answered.status, question).toBe(200);
      const result = (await answered.json()) as { status: string; answer: { text: string; citations: number[] } | null; sources: { domain: string }[] };
      expect(result.status, question).toBe("succeeded");
      expect(result.answer, `${question}: no short answer`).not.toBeNull();
      expect(result.answer!.citations.length, question).toBeGreaterThan(0);
      expect(result.sources.every((found) => found.domain === "sotu.corpus")).toBe(true);
    }
  });
});
