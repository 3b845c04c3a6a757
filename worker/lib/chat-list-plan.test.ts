/**
 * The chat list's query plans (issue 16, migrations/0013_perf.sql): a page of GET /api/tickets,
 * unfiltered or by status, reads the company's tickets in list order from an index that ends with
 * the tie-break id, and never sorts the company's tickets (no temporary B-tree) to find 30 rows.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";

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
