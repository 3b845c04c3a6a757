/**
 * Contacts (spec §2 Contacts, §3 Contact, §5 validation; issue 4). Permission `contacts`; writing
 * custom field values also needs `contacts_custom_fields`, changing tags `contacts_tags` (403
 * otherwise). Phones are E.164 and unique in the company: 409 `phone_in_use` 'A contact with this
 * number already exists.'. Another company's contact answers 404.
 *
 * - GET /api/contacts?search=&tags=<id,id>&field.<fieldId>=<value>&cursor=&limit= → ContactPage
 *   `{results: ContactAnswer[], cursor, total, totalCapped}`: newest first, keyset on (created_at,
 *   id). `search` (≤ 40 characters and ≤ 48 UTF-8 bytes escaped, so the LIKE pattern stays within
 *   D1's 50 bytes; 400 `search: too_long` beyond) matches name, e-mail or phone digits; `tags`:
 *   contacts with ANY of them; each `field.<id>=` an exact value (normalised by the field's type).
 *   `total`: the maintained counter when unfiltered, else a count capped at 10,000 (a search's at
 *   2,000, issue 16) with `totalCapped`.
 * - POST /api/contacts ContactInput → 201 ContactAnswer.
 * - GET /api/contacts/{id} → ContactDetailAnswer (with every field's value, built-ins and formulas
 *   computed, and the contact's latest tickets).
 * - PUT /api/contacts/{id} ContactUpdate → ContactAnswer.
 * - DELETE /api/contacts/{id} → 204 (its tags, values, identities, tickets and messages go too).
 * - POST /api/contacts/bulk {ids | filter, action: tag|untag|delete, tagIds?} → ContactBulkAnswer
 *   `{affected, done}`. A delete by filter handles up to 1,000 contacts per call (`done: false`:
 *   call again); tag and untag by filter are one set-based statement each.
 */
import { Hono } from "hono";
import { and, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import { contacts, contactTags, tags, type ContactRow } from "../../schema";
import type { ContactAnswer, ContactBulkAnswer, ContactDetailAnswer, ContactPage } from "../../schema/api-types";
import { referralAnswer } from "../lib/tickets";
import { idSchema } from "../../schema/validation/common";
import { contactBulkInput, contactInput, contactListQuery, contactUpdate } from "../../schema/validation/contacts";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import {
  checkTags,
  computeContactValues,
  contactListPage,
  createContactRecord,
  deleteContacts,
  filterWhere,
  findContact,
  presentContacts,
  resolveFilter,
  ticketsOfContact,
  updateContactRecord,
} from "../lib/contacts";
import { chunk, decodeNumberCursor, encodeCursor } from "../lib/cursor";
import type { Db } from "../lib/db";
import { AppError, forbidden } from "../lib/errors";
import { publishCard, publishColumns } from "../lib/crm";
import { zv } from "../lib/validate";

const idParam = z.object({ id: idSchema });

/** Most contacts a delete by filter removes per call. */
const BULK_DELETE_PER_CALL = 1000;

async function answerOf(db: Db, companyId: string, row: ContactRow): Promise<ContactAnswer> {
  const [answer] = await presentContacts(db, companyId, [row]);
  if (!answer) throw new AppError("not_found", "Contact not found.");
  return answer;
}

export const contactsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requireSubscription, requirePermission("contacts"))
  /** GET /api/contacts → ContactPage. */
  .get("/", zv("query", contactListQuery), async (c) => {
    const { filter, cursor, limit } = c.req.valid("query");
    const db = c.var.db;
    const companyId = c.var.company.id;
    // The search plan, the page and the total go in one D1 batch (worker/lib/contacts.ts contactListPage, issue 16).
    const resolved = await resolveFilter(db, companyId, filter, undefined, false);
    const after = decodeNumberCursor(cursor);
    const counted = await contactListPage(db, companyId, resolved, after, limit + 1);
    const rows = counted.rows;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const answer: ContactPage = {
      results: await presentContacts(db, companyId, page),
      cursor: rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null,
      total: counted.total,
      totalCapped: counted.capped,
    };
    return c.json(answer);
  })
  /** POST /api/contacts ContactInput → 201 ContactAnswer; 409 phone_in_use. */
  .post("/", zv("json", contactInput), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await createContactRecord(c.env, db, companyId, c.var.permissions, c.req.valid("json"));
    return c.json(await answerOf(db, companyId, row), 201);
  })
  /**
   * POST /api/contacts/bulk → ContactBulkAnswer. tag/untag need `contacts_tags`; delete needs
   * `contacts` only. Tag ids must be the company's (400 `tagIds: invalid_id`).
   */
  .post("/bulk", zv("json", contactBulkInput), async (c) => {
    const input = c.req.valid("json");
    const db = c.var.db;
    const companyId = c.var.company.id;
    if (input.action !== "delete" && !c.var.permissions.has("contacts_tags")) throw forbidden("Changing contacts' tags needs the contacts_tags permission.");
    const tagIds = input.tagIds ?? [];
    if (input.action !== "delete") await checkTags(db, companyId, tagIds, "tagIds");
    const filterSql = input.filter ? filterWhere(companyId, await resolveFilter(db, companyId, input.filter, (id) => `filter.fields.${id}`)) : null;
    let answer: ContactBulkAnswer;
    if (input.action === "delete") {
      if (input.ids) {
        answer = { affected: await deleteContacts(db, companyId, input.ids), done: true };
      } else {
        let affected = 0;
        let done = false;
        while (affected < BULK_DELETE_PER_CALL) {
          const ids = await db.select({ id: contacts.id }).from(contacts).where(filterSql ?? eq(contacts.companyId, companyId)).limit(90);
          if (!ids.length) {
            done = true;
            break;
          }
          affected += await deleteContacts(db, companyId, ids.map((r) => r.id));
        }
        answer = { affected, done };
      }
      // Cards may have left the board: watchers reload it.
      if (answer.affected) await publishColumns(c.env, db, companyId);
    } else if (input.action === "tag") {
      let affected = 0;
      const targets = input.ids ? chunk(input.ids, 95 - tagIds.length).map((part) => inArray(contacts.id, part)) : [undefined];
      for (const target of targets) {
        const result = await db.run(
          sql`INSERT OR IGNORE INTO ${contactTags} (company_id, contact_id, tag_id) SELECT ${contacts.companyId}, ${contacts.id}, ${tags.id} FROM ${contacts} JOIN ${tags} ON ${tags.companyId} = ${contacts.companyId} AND ${inArray(tags.id, tagIds)} WHERE ${and(filterSql ?? eq(contacts.companyId, companyId), target)}`,
        );
        affected += result.meta.changes ?? 0;
      }
      answer = { affected, done: true };
    } else {
      let affected = 0;
      const targets = input.ids ? chunk(input.ids, 95 - tagIds.length).map((part) => inArray(contacts.id, part)) : [undefined];
      for (const target of targets) {
        const result = await db.run(
          sql`DELETE FROM ${contactTags} WHERE ${contactTags.companyId} = ${companyId} AND ${inArray(contactTags.tagId, tagIds)} AND ${contactTags.contactId} IN (SELECT ${contacts.id} FROM ${contacts} WHERE ${and(filterSql ?? eq(contacts.companyId, companyId), target)})`,
        );
        affected += result.meta.changes ?? 0;
      }
      answer = { affected, done: true };
    }
    return c.json(answer);
  })
  /** GET /api/contacts/{id} → ContactDetailAnswer. */
  .get("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findContact(db, companyId, c.req.valid("param").id);
    const [answer, values, ticketList] = await Promise.all([answerOf(db, companyId, row), computeContactValues(c.env, db, row), ticketsOfContact(db, companyId, row.id)]);
    const detail: ContactDetailAnswer = { ...answer, values, tickets: ticketList, referral: referralAnswer(row.referral) };
    return c.json(detail);
  })
  /** PUT /api/contacts/{id} ContactUpdate → ContactAnswer; 409 phone_in_use. */
  .put("/:id", zv("param", idParam), zv("json", contactUpdate), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await updateContactRecord(c.env, db, companyId, c.var.permissions, c.req.valid("param").id, c.req.valid("json"));
    return c.json(await answerOf(db, companyId, row));
  })
  /** DELETE /api/contacts/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    const db = c.var.db;
    const companyId = c.var.company.id;
    const row = await findContact(db, companyId, c.req.valid("param").id);
    await deleteContacts(db, companyId, [row.id]);
    if (row.crmColumnId) await publishCard(c.env, db, companyId, row.id, row.crmColumnId);
    return c.body(null, 204);
  });
