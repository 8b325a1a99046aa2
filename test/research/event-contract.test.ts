import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { JobEventDto } from "../../src/research/service";
import { call, json } from "../helpers";
import { apiCaller, corpusLoaded, eventsOf, openEvents, readSse, research } from "./helpers";

/**
 * The job's events have a contract (research/event-shapes.ts) that /openapi.json publishes: the
 * events operation's stream is documented as JobEvent, one named component per event, and every
 * event a real job sends over HTTP validates against it, and against the zod schema it comes from.
 */

type Schema = Record<string, any>;
let doc: Schema;
let validateEvent: (event: unknown) => string[];

beforeAll(async () => {
  doc = await json(await call("/openapi.json"));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The components as one schema of definitions, so each $ref of the document resolves.
  const rewrite = (value: unknown): Schema =>
    JSON.parse(JSON.stringify(value), (key, v) => (key === "$ref" && typeof v === "string" ? v.replace("#/components/schemas/", "components#/$defs/") : v));
  ajv.addSchema({ $id: "components", $defs: rewrite(doc.components.schemas) });
  const validate = ajv.compile(rewrite({ $ref: "#/components/schemas/JobEvent" }));
  validateEvent = (event) => (validate(event) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message}`));
});

/** Every event of a finished job's stream, as a client reads it: its id, name and parsed data. */
async function streamedEvents(caller: Awaited<ReturnType<typeof apiCaller>>, id: string) {
  const frames = eventsOf(await readSse(await openEvents(caller, id)));
  return frames.map(({ id, event, data }) => ({ id, event, data }));
}

describe("the events' contract", () => {
  it("is published: the events operations stream JobEvent, a oneOf of one named component per event", () => {
    const names = JobEventDto.options.map((option) => option.shape.event.value);
    expect(names).toEqual(["status", "progress", "source", "error", "result"]);
    for (const path of ["/v1/research/{id}/events", "/api/playground/research/{id}/events"]) {
      expect(doc.paths[path].get.responses["200"].content["text/event-stream"].schema).toEqual({ $ref: "#/components/schemas/JobEvent" });
    }
    const union = doc.components.schemas.JobEvent;
    expect(union.oneOf.map((part: Schema) => part.$ref)).toEqual(
      ["JobStatusEvent", "JobProgressEvent", "JobSourceEvent", "JobErrorEvent", "JobResultEvent"].map((name) => `#/components/schemas/${name}`),
    );
    expect(union.discriminator).toMatchObject({ propertyName: "event" });
  });

  it("holds for every event a job sends: status, progress, source, error and result, over HTTP", async () => {
    await corpusLoaded();
    const caller = await apiCaller();
    const succeeded = await json(await research(caller, { question: "What was the Smoot-Hawley Tariff Act?", mode: "lite" }));
    expect(succeeded.status).toBe("succeeded");
    // A typed output no source can satisfy: the job fails, with an error event before its result.
    const schema = { type: "object", required: ["code"], properties: { code: { type: "string", pattern: "^[A-Z]{3}-\\d{4}$" } } };
    const failed = await json(await research(caller, { question: "What was the Tariff of 1828?", mode: "lite", response_schema: schema }));
    expect(failed.status).toBe("failed");

    const events = [...(await streamedEvents(caller, succeeded.id)), ...(await streamedEvents(caller, failed.id))];
    expect(new Set(events.map((event) => event.event))).toEqual(new Set(["status", "progress", "source", "error", "result"]));
    const problems = events.flatMap((event) => [
      ...validateEvent(event).map((problem) => `${event.event} ${event.id} (document): ${problem}`),
      ...(JobEventDto.safeParse(event).error?.issues ?? []).map((issue) => `${event.event} ${event.id} (zod): ${issue.path.join(".")} ${issue.message}`),
    ]);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
