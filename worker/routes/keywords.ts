/**
 * Keyword triggers (issue 5 "Triggers"; spec §2 /keywords; contract .tmp/flows-api.md). Permission
 * `keywords`. A trigger that is on starts its flow's published version when an inbound message
 * matches one of its rules (worker/lib/flows.ts keywordMatches; DESIGN.md "The main job" step 3).
 *
 * - GET /api/keywords → KeywordAnswer[] by name.
 * - POST /api/keywords {name, turnOn, rules: [{type: start_with|contains|is, words}], flowId} → 201 KeywordAnswer.
 * - GET /api/keywords/{id} → KeywordAnswer; PUT (same body) → KeywordAnswer; DELETE → 204.
 * 400 `flowId: flow_required` when no flow is chosen (an empty id), `flowId: invalid_id` for a flow
 * that is not the company's; 409 `name_in_use` naming `name` for a
 * name another keyword of the company has, ignoring case.
 */
import { Hono } from "hono";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { keywords, type KeywordRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { keywordInput } from "../../schema/validation/flows";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { existingFlowIds, presentKeyword } from "../lib/flows";
import { newId } from "../lib/ids";
import { assertNameFree, withNameIndex } from "../lib/unique-name";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

async function findKeyword(db: Db, companyId: string, id: string): Promise<KeywordRow> {
  const row = await db.query.keywords.findFirst({ where: and(eq(keywords.id, id), eq(keywords.companyId, companyId)) });
  if (!row) throw notFound("Keyword");
  return row;
}

async function checkFlow(db: Db, companyId: string, flowId: string): Promise<void> {
  if (!(await existingFlowIds(db, companyId, [flowId])).has(flowId)) throw new AppError("validation_failed", "That flow does not exist.", { flowId: "invalid_id" });
}

export const keywordsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("keywords"))
  /** GET /api/keywords → KeywordAnswer[] by name. */
  .get("/", async (c) => {
    const rows = await c.var.db.select().from(keywords).where(eq(keywords.companyId, c.var.company.id)).orderBy(asc(keywords.name), asc(keywords.id));
    return c.json(rows.map(presentKeyword));
  })
  /** POST /api/keywords → 201 KeywordAnswer. */
  .post("/", zv("json", keywordInput), async (c) => {
    const input = c.req.valid("json");
    const companyId = c.var.company.id;
    await checkFlow(c.var.db, companyId, input.flowId);
    await assertNameFree(c.var.db, keywords, companyId, input.name);
    const at = now();
    const row: KeywordRow = { id: newId(), companyId, name: input.name, turnOn: input.turnOn, rules: input.rules, flowId: input.flowId, createdMessages: 0, createdAt: at, updatedAt: at };
    await withNameIndex(() => c.var.db.insert(keywords).values(row));
    return c.json(presentKeyword(row), 201);
  })
  /** GET /api/keywords/{id} → KeywordAnswer. */
  .get("/:id", zv("param", idParam), async (c) => c.json(presentKeyword(await findKeyword(c.var.db, c.var.company.id, c.req.valid("param").id))))
  /** PUT /api/keywords/{id} → KeywordAnswer (the message count is kept). */
  .put("/:id", zv("param", idParam), zv("json", keywordInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findKeyword(db, companyId, c.req.valid("param").id);
    await checkFlow(db, companyId, input.flowId);
    await assertNameFree(db, keywords, companyId, input.name, { exceptId: row.id });
    const [updated] = await withNameIndex(() =>
      db
        .update(keywords)
        .set({ name: input.name, turnOn: input.turnOn, rules: input.rules, flowId: input.flowId, updatedAt: now() })
        .where(and(eq(keywords.id, row.id), eq(keywords.companyId, companyId)))
        .returning(),
    );
    return c.json(presentKeyword(updated ?? row));
  })
  /** DELETE /api/keywords/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findKeyword(db, companyId, c.req.valid("param").id);
    await db.delete(keywords).where(and(eq(keywords.id, row.id), eq(keywords.companyId, companyId)));
    return c.body(null, 204);
  });
