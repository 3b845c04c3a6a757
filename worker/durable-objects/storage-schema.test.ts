/**
 * The schema version row of the ContactSession's and the TicketRoom's storage (issue 16): a new
 * object creates every table at once and records the version; an object whose storage predates the
 * row (an older deploy) is brought up to date when it starts, keeping what it held; an object whose
 * storage is current skips the DDL.
 */
import { env, evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { newId } from "../lib/ids";
import { contactSessionOf, roomOf } from "../lib/realtime";

type Sql = DurableObjectState["storage"]["sql"];

const tablesOf = (sql: Sql) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'")
    .toArray()
    .map((r) => r.name)
    .sort();
const columnsOf = (sql: Sql, table: string) =>
  sql
    .exec<{ name: string }>(`PRAGMA table_info(${table})`)
    .toArray()
    .map((r) => r.name);
const metaOf = (sql: Sql, k: string) => sql.exec<{ v: string | number }>("SELECT v FROM meta WHERE k = ?", k).toArray()[0]?.v;

describe("ContactSession storage", () => {
  it("a new session has every table and the schema version; an older one is upgraded when it starts and keeps its handled_since", async () => {
    const session = contactSessionOf(env, newId(), "whatsapp-cloud", `55${Date.now()}`);
    const first = await runInDurableObject(session, (_i, state) => ({
      tables: tablesOf(state.storage.sql),
      runs: columnsOf(state.storage.sql, "runs"),
      schema: metaOf(state.storage.sql, "schema"),
      since: metaOf(state.storage.sql, "handled_since"),
    }));
    expect(first.tables).toEqual(["handled", "meta", "outbox", "runs", "timers"]);
    expect(first.runs).toContain("warnings");
    expect(first.schema).toBe("1");
    expect(Number(first.since)).toBeGreaterThan(0);

    // The storage an older deploy left: no schema row, `runs` without `warnings`.
    await runInDurableObject(session, (_i, state) => {
      state.storage.sql.exec("DELETE FROM meta WHERE k = 'schema'");
      state.storage.sql.exec("ALTER TABLE runs DROP COLUMN warnings");
    });
    await evictDurableObject(session);
    const upgraded = await runInDurableObject(session, (_i, state) => ({
      runs: columnsOf(state.storage.sql, "runs"),
      schema: metaOf(state.storage.sql, "schema"),
      since: metaOf(state.storage.sql, "handled_since"),
    }));
    expect(upgraded.runs).toContain("warnings");
    expect(upgraded.schema).toBe("1");
    expect(upgraded.since).toBe(first.since);
  });
});

describe("TicketRoom storage", () => {
  it("a new room has every table and the schema version; an older one gets its missing columns and recovers a send cut off in flight", async () => {
    const room = roomOf(env, newId());
    const first = await runInDurableObject(room, (_i, state) => ({
      tables: tablesOf(state.storage.sql),
      sends: columnsOf(state.storage.sql, "sends"),
      schema: metaOf(state.storage.sql, "schema"),
    }));
    expect(first.tables).toEqual(["meta", "revocations", "sends"]);
    expect(first.sends).toEqual(expect.arrayContaining(["in_flight_at", "doubt_until", "provider_failures", "own_since", "reasons"]));
    expect(first.schema).toBe(1);

    // An older room: no schema row, `sends` without the later columns; then one with a send in
    // flight when its instance died.
    await runInDurableObject(room, (_i, state) => {
      const sql = state.storage.sql;
      sql.exec("DELETE FROM meta WHERE k = 'schema'");
      for (const column of ["reasons", "own_since", "provider_failures"]) sql.exec(`ALTER TABLE sends DROP COLUMN ${column}`);
    });
    await evictDurableObject(room);
    const upgraded = await runInDurableObject(room, (_i, state) => ({
      sends: columnsOf(state.storage.sql, "sends"),
      schema: metaOf(state.storage.sql, "schema"),
    }));
    expect(upgraded.sends).toEqual(expect.arrayContaining(["provider_failures", "own_since", "reasons"]));
    expect(upgraded.schema).toBe(1);

    // A current room still recovers a send cut off in flight when it starts (only the DDL is skipped).
    await runInDurableObject(room, async (_i, state) => {
      state.storage.sql.exec(
        "INSERT INTO sends (message_id, company_id, ticket_id, connection_id, outbound, recipient, next_at, in_flight_at) VALUES ('m', 'c', 't', 'k', '{}', 'r', ?, ?)",
        Date.now() + 3_600_000,
        Date.now(),
      );
      await state.storage.deleteAlarm();
    });
    await evictDurableObject(room);
    const recovered = await runInDurableObject(room, async (_i, state) => ({
      send: state.storage.sql.exec<{ in_flight_at: number | null; doubt_until: number | null }>("SELECT in_flight_at, doubt_until FROM sends").one(),
      alarm: await state.storage.getAlarm(),
    }));
    expect(recovered.send.in_flight_at).toBeNull();
    expect(recovered.send.doubt_until).toBeGreaterThan(Date.now());
    expect(recovered.alarm).not.toBeNull();
    // Nothing left for the room's alarm to act on in this test.
    await runInDurableObject(room, async (_i, state) => {
      state.storage.sql.exec("DELETE FROM sends");
      await state.storage.deleteAlarm();
    });
  });
});
