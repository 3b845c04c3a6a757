/**
 * The chat list's query plans (issue 16, migrations/0008_wave3.sql): a page of GET /api/tickets,
 * unfiltered or by status, reads the company's tickets in list order from an index that ends with
 * the tie-break id, and never sorts the company's tickets (no temporary B-tree) to find 30 rows.
 */
import { env } from "cloudflare:test";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tickets } from "../../schema";
import { activeCompanyId, call, expectStatus, register } from "../test/helpers";
import { getDb } from "./db";
import { ticketListPage } from "./tickets";

/** The page query of GET /api/tickets (worker/routes/tickets.ts), with an optional extra term. */
function pageQuery(extra: string): string {
  return (
    'SELECT "tickets"."id", "tickets"."last_message_at" FROM "tickets" INNER JOIN "contacts" ON "contacts"."id" = "tickets"."contact_id" ' +
    `WHERE "tickets"."company_id" = ?1 ${extra} ORDER BY "tickets"."last_message_at" DESC, "tickets"."id" DESC LIMIT 31`
  );
}

async function plan(sql: string): Promise<string> {
  const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind("company").all<{ detail: string }>();
  return rows.results.map((r) => r.detail).join("\n");
}

describe("chat list query plans", () => {
  it("the first page and each status filter walk an index in list order, without sorting", async () => {
    const cases: [string, RegExp][] = [
      ["", /tickets_company_last_id_idx/],
      [`AND "tickets"."status" = 'open'`, /tickets_company_status_last_id_idx/],
      [`AND "tickets"."status" = 'pending'`, /tickets_company_status_last_id_idx/],
      [`AND "tickets"."is_group" = 0`, /tickets_company_last_id_idx/],
      [`AND "tickets"."unread_count" > 0`, /tickets_company_last_id_idx/],
    ];
    for (const [extra, index] of cases) {
      const detail = await plan(pageQuery(extra));
      expect(detail, extra).toMatch(index);
      expect(detail, extra).not.toMatch(/TEMP B-TREE/);
    }
  });
});

describe("chat list page and count (issue 16)", () => {
  const db = getDb(env.DB);

  it("the page query with its answers' joins still walks the list index in order, for each filter", async () => {
    const cases: [SQL | undefined, RegExp][] = [
      [undefined, /tickets_company_last_id_idx/],
      [eq(tickets.status, "open"), /tickets_company_status_last_id_idx/],
      [eq(tickets.status, "closed"), /tickets_company_status_last_id_idx/],
      [eq(tickets.isGroup, true), /tickets_company_last_id_idx/],
      [sql`${tickets.unreadCount} > 0`, /tickets_company_last_id_idx/],
      // A member without see_all_tickets (worker/lib/ticket-access.ts): a row filter on the same walk.
      [sql`(${tickets.status} = 'pending' OR ${tickets.assignedMemberId} = 'm')`, /tickets_company_last_id_idx/],
    ];
    for (const [extra, index] of cases) {
      const query = ticketListPage(db, and(eq(tickets.companyId, "company"), extra), 31).toSQL();
      const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
        .bind(...query.params)
        .all<{ detail: string }>();
      const detail = rows.results.map((r) => r.detail).join("\n");
      expect(detail, query.sql).toMatch(index);
      expect(detail, query.sql).not.toMatch(/TEMP B-TREE/);
    }
  });

  it("counts at most 1,000 tickets: past that total is 1,000 and totalCapped is true", async () => {
    const owner = await register();
    const companyId = await activeCompanyId(owner.token);
    const at = Date.now();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO connections (id, company_id, name, channel, status, created_at, updated_at) VALUES (?1, ?2, 'Cap', 'whatsapp-cloud', 'CONNECTED', ?3, ?3)").bind(`${companyId}-conn`, companyId, at),
      env.DB.prepare(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1001) INSERT INTO contacts (id, company_id, name, phone, created_at, updated_at) SELECT ?1 || '-c' || i, ?1, 'Cap ' || i, '+5511977' || printf('%06d', i), ?2, ?2 FROM n",
      ).bind(companyId, at),
      env.DB.prepare(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1001) INSERT INTO tickets (id, company_id, contact_id, connection_id, status, is_group, unread_count, last_message_at, last_message_preview, created_at, updated_at) " +
          "SELECT ?1 || '-t' || printf('%06d', i), ?1, ?1 || '-c' || i, ?1 || '-conn', CASE WHEN i < 3 THEN 'open' ELSE 'pending' END, 0, 0, ?2 + i, 'm', ?2, ?2 FROM n",
      ).bind(companyId, at),
    ]);
    const list = async (query: string) => expectStatus<{ results: { id: string; connection: { name: string }; contact: { name: string } }[]; total: number; totalCapped: boolean }>(await call("GET", `/api/tickets?${query}`, { token: owner.token }), 200);
    const all = await list("limit=5");
    expect([all.total, all.totalCapped]).toEqual([1000, true]);
    expect(all.results.map((t) => t.contact.name)).toEqual(["Cap 1001", "Cap 1000", "Cap 999", "Cap 998", "Cap 997"]);
    expect(all.results[0]?.connection.name).toBe("Cap");
    const open = await list("status=open");
    expect([open.total, open.totalCapped]).toEqual([3, false]);
  });
});
