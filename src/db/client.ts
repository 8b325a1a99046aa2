import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = ReturnType<typeof buildDb>;

function buildDb(d1: D1Database) {
  return drizzle(d1, { schema });
}

/**
 * Building a Drizzle client walks the whole schema (its relational config): it was a quarter of
 * the CPU of a cached API call. The client holds no per-request state, and the runtime hands every
 * request of an isolate the same D1 binding, so there is one client per binding.
 */
const clients = new WeakMap<D1Database, Db>();

/** The Drizzle client over this D1 binding, made once per isolate. */
export function createDb(d1: D1Database): Db {
  let db = clients.get(d1);
  if (!db) {
    db = buildDb(d1);
    clients.set(d1, db);
  }
  return db;
}
