import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, json } from "../helpers";
import { apiCaller, type ApiCaller } from "../research/helpers";

/** The same routes on both surfaces: /v1 with the API key, /api with the access token. */
const surfaces = [
  { name: "/v1 (API key)", base: "/v1", token: (caller: ApiCaller) => caller.key },
  { name: "/api (JWT)", base: "/api", token: (caller: ApiCaller) => caller.accessToken },
];

for (const surface of surfaces) {
  describe(`collections under ${surface.name}`, () => {
    const send = (caller: ApiCaller, path: string, init: { method?: string; body?: unknown } = {}) =>
      call(`${surface.base}${path}`, { token: surface.token(caller), ...init });

    it("create, get, list, rename and delete a collection", async () => {
      const caller = await apiCaller();
      const created = await send(caller, "/collections", { body: { name: "  Board minutes ", description: "2019-2024" } });
      expect(created.status).toBe(200);
      const collection = await json(created);
      expect(collection).toMatchObject({ name: "Board minutes", description: "2019-2024", document_count: 0, bytes: 0 });
      expect(await json(await send(caller, `/collections/${collection.id}`))).toEqual(collection);
      await send(caller, "/collections", { body: { name: "Second" } });
      const listed = await json(await send(caller, "/collections?limit=1"));
      expect(listed.map((c: { name: string }) => c.name)).toEqual(["Second"]);
      const renamed = await json(await send(caller, `/collections/${collection.id}`, { method: "PATCH", body: { name: "Minutes", description: null } }));
      expect(renamed).toMatchObject({ name: "Minutes", description: null });
      expect((await send(caller, `/collections/${collection.id}`, { method: "DELETE" })).status).toBe(200);
      await expectError(await send(caller, `/collections/${collection.id}`), 404, "not_found");
    });

    it("ingests documents, counts them, replaces by url or title, and deletes them with their collection", async () => {
      const caller = await apiCaller();
      const { id } = await json(await send(caller, "/collections", { body: { name: "Reports" } }));
      const ingest = (documents: unknown[]) => send(caller, `/collections/${id}/documents`, { body: { documents } });
      const first = await json(
        await ingest([
          {
            title: "Harbor report",
            text: "# Harbor\n\nThe harbor was dredged in 1891 to a depth of 30 feet.",
            url: "https://example.org/harbor",
            metadata: { year: 1891 },
          },
          { title: "Canal note", text: "The canal opened in 1825 and carried grain east." },
        ]),
      );
      expect(first.ingested).toBe(2);
      expect(first.documents.map((d: { title: string }) => d.title)).toEqual(["Harbor report", "Canal note"]);
      const harborId = first.documents[0].id;
      // The same url replaces the document (same id), the same title without url replaces the note.
      const again = await json(
        await ingest([
          { title: "Harbor report (revised)", text: "The harbor was dredged again in 1902.", url: "https://example.org/harbor" },
          { title: "Canal note", text: "The canal opened in 1825." },
        ]),
      );
      expect(again.documents[0].id).toBe(harborId);
      const collection = await json(await send(caller, `/collections/${id}`));
      expect(collection.document_count).toBe(2);
      expect(collection.bytes).toBe(new TextEncoder().encode("The harbor was dredged again in 1902.The canal opened in 1825.").length);
      const listed = await json(await send(caller, `/collections/${id}/documents`));
      expect(listed.map((d: { title: string }) => d.title).sort()).toEqual(["Canal note", "Harbor report (revised)"]);
      expect(listed[0]).not.toHaveProperty("text");
      const doc = await json(await send(caller, `/collections/${id}/documents/${harborId}`));
      expect(doc).toMatchObject({
        title: "Harbor report (revised)",
        url: "https://example.org/harbor",
        text: "The harbor was dredged again in 1902.",
        metadata: null,
      });
      // Its chunks are searchable, and go with the document.
      const chunks = async () =>
        (await env.DB.prepare("SELECT count(*) AS n FROM collection_chunks WHERE collection_id = ?").bind(id).first<{ n: number }>())!.n;
      expect(await chunks()).toBe(2);
      expect((await send(caller, `/collections/${id}/documents/${harborId}`, { method: "DELETE" })).status).toBe(200);
      expect(await chunks()).toBe(1);
      expect((await json(await send(caller, `/collections/${id}`))).document_count).toBe(1);
      const { results: rowids } = await env.DB.prepare("SELECT id FROM collection_chunks WHERE collection_id = ?").bind(id).all<{ id: number }>();
      const indexed = async () =>
        (await env.DB.prepare(
          `SELECT count(*) AS n FROM collection_fts WHERE collection_fts MATCH 'canal' AND rowid IN (${rowids.map((row) => row.id).join(",")})`,
        ).first<{ n: number }>())!.n;
      expect(await indexed()).toBe(1);
      await send(caller, `/collections/${id}`, { method: "DELETE" });
      expect(await chunks()).toBe(0);
      expect(await indexed()).toBe(0);
    });

    it("refuses bad input with nothing written: no documents, too many, empty text, a document over 2 MB", async () => {
      const caller = await apiCaller();
      const { id } = await json(await send(caller, "/collections", { body: { name: "Limits" } }));
      const ingest = (documents: unknown[]) => send(caller, `/collections/${id}/documents`, { body: { documents } });
      await expectError(await ingest([]), 400, "invalid_request");
      await expectError(await ingest(Array.from({ length: 101 }, (_, i) => ({ title: `D${i}`, text: "x" }))), 400, "invalid_request");
      // 100 is allowed (more keys than D1 binds in one statement).
      expect((await ingest(Array.from({ length: 100 }, (_, i) => ({ title: `D${i}`, text: `Document number ${i}.` })))).status).toBe(200);
      expect((await ingest(Array.from({ length: 100 }, (_, i) => ({ title: `D${i}`, text: `Document number ${i}, replaced.` })))).status).toBe(200);
      expect((await json(await send(caller, `/collections/${id}`))).document_count).toBe(100);
      await expectError(await ingest([{ title: "Empty", text: "   " }]), 400, "invalid_request");
      await expectError(
        await ingest([
          { title: "Fine", text: "A fine document." },
          { title: "Huge", text: "a".repeat(2 * 1024 * 1024 + 1) },
        ]),
        413,
        "payload_too_large",
      );
      await expectError(await send(caller, "/collections", { body: { name: "" } }), 400, "invalid_request");
      expect((await json(await send(caller, `/collections/${id}`))).document_count).toBe(100);
    });

    it("isolates accounts on every route: another account's collection and documents are 404, and stay untouched", async () => {
      const owner = await apiCaller();
      const other = await apiCaller();
      const { id } = await json(await send(owner, "/collections", { body: { name: "Private" } }));
      const { documents } = await json(
        await send(owner, `/collections/${id}/documents`, { body: { documents: [{ title: "Secret", text: "The secret plan is filed here." }] } }),
      );
      const doc = documents[0].id;
      await expectError(await send(other, `/collections/${id}`), 404, "not_found");
      await expectError(await send(other, `/collections/${id}`, { method: "PATCH", body: { name: "Mine" } }), 404, "not_found");
      await expectError(await send(other, `/collections/${id}/documents`), 404, "not_found");
      await expectError(
        await send(other, `/collections/${id}/documents`, { body: { documents: [{ title: "Planted", text: "Planted text." }] } }),
        404,
        "not_found",
      );
      await expectError(await send(other, `/collections/${id}/documents/${doc}`), 404, "not_found");
      await expectError(await send(other, `/collections/${id}/documents/${doc}`, { method: "DELETE" }), 404, "not_found");
      await expectError(await send(other, `/collections/${id}`, { method: "DELETE" }), 404, "not_found");
      expect(await json(await send(other, "/collections"))).toEqual([]);
      const still = await json(await send(owner, `/collections/${id}`));
      expect(still).toMatchObject({ name: "Private", document_count: 1 });
      expect((await json(await send(owner, `/collections/${id}/documents/${doc}`))).text).toBe("The secret plan is filed here.");
      // Deleting one's own collection never touches another's (same names, same titles).
      const { id: theirs } = await json(await send(other, "/collections", { body: { name: "Private" } }));
      await send(other, `/collections/${theirs}/documents`, { body: { documents: [{ title: "Secret", text: "Another secret plan." }] } });
      expect((await send(other, `/collections/${theirs}`, { method: "DELETE" })).status).toBe(200);
      expect((await json(await send(owner, `/collections/${id}`))).document_count).toBe(1);
    });

    it("401 without credentials", async () => {
      await expectError(await call(`${surface.base}/collections`), 401, "unauthorized");
    });
  });
}
