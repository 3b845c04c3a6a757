/**
 * Instagram (issue 15). Two sub-apps:
 *
 * `instagramChannelRoutes`, mounted at /api/channels/instagram (before the generic provider routes):
 * - GET  /webhook: Meta's verification handshake (INSTAGRAM_VERIFY_TOKEN). Public.
 * - POST /webhook: a signed delivery (`X-Hub-Signature-256`, HMAC-SHA256 of the raw body with
 *   INSTAGRAM_APP_SECRET; bad or missing → 401, nothing stored). Messages go through the inbound
 *   pipeline, comments to the comment automations (worker/lib/instagram-inbound.ts). Public.
 * - POST /authorize → {url, expiresAt}: Instagram's business-login page with a `state` bound to the
 *   company and user (15 minutes, single use). Permission `connections`.
 * - POST /callback {code, state} → ConnectionAnswer: completes the login (worker/lib/instagram-connect.ts).
 *   Permission `connections`; the state must be the same company's and user's.
 *
 * `instagramCommentRulesRoutes`, mounted at /api/connections (before connectionsRoutes), permission
 * `connections` (spec §6 has no permission of its own for it; the rules belong to the connection and
 * are edited on the Connections screen):
 * - GET    /{id}/comment-rules → CommentRuleAnswer[] (oldest first: the first that matches acts).
 * - POST   /{id}/comment-rules → 201 CommentRuleAnswer.
 * - PUT    /{id}/comment-rules/{ruleId} → CommentRuleAnswer; DELETE → 204.
 * 404 for another company's connection or rule; 400 `channel: not_instagram` for a connection of
 * another channel; 400 `flowId: invalid_id` for a flow that is not the company's.
 */
import { Hono } from "hono";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { connections, instagramCommentRules, type ConnectionRow } from "../../schema";
import { idSchema } from "../../schema/validation/common";
import { commentRuleInput, instagramCallbackInput } from "../../schema/validation/instagram";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireSubscription, requireUser } from "../middleware/auth";
import { readInstagramDelivery } from "../channels/instagram";
import type { Db } from "../lib/db";
import { now } from "../lib/db";
import { AppError, notFound } from "../lib/errors";
import { existingFlowIds } from "../lib/flows";
import { newId } from "../lib/ids";
import { presentCommentRule } from "../lib/instagram-comments";
import { completeAuthorization, startAuthorization } from "../lib/instagram-connect";
import { InstagramError } from "../lib/instagram-graph";
import { handleInstagramDelivery } from "../lib/instagram-inbound";
import { zv } from "../lib/validate";
import { presentConnection } from "./connections";

/** Constant-time string comparison (for the verify token). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

const signedIn = [requireUser, requireCompany, requireSubscription, requirePermission("connections")] as const;

export const instagramChannelRoutes = new Hono<HonoEnv>()
  /** GET /api/channels/instagram/webhook: echoes `hub.challenge` for the right verify token; 403 otherwise. */
  .get("/webhook", (c) => {
    const mode = c.req.query("hub.mode");
    const token = c.req.query("hub.verify_token") ?? "";
    const challenge = c.req.query("hub.challenge") ?? "";
    const expected = c.env.INSTAGRAM_VERIFY_TOKEN ?? "";
    if (mode === "subscribe" && expected && sameText(token, expected)) return c.text(challenge, 200);
    return c.json({ error: { code: "forbidden", message: "Verification failed." } }, 403);
  })
  /**
   * POST /api/channels/instagram/webhook → 200 {ok, stored, duplicates, statuses, ignored, rejected,
   * comments}. 401 bad signature (nothing stored), 400 not JSON / not an Instagram envelope, 413
   * over 1 MiB, 502 when a comment's private reply failed transiently (Meta delivers again; what
   * was stored is deduplicated then).
   */
  .post("/webhook", async (c) => {
    const entries = await readInstagramDelivery(c.env.INSTAGRAM_APP_SECRET ?? "", c.req.raw);
    try {
      return c.json({ ok: true, ...(await handleInstagramDelivery(c.env, c.var.db, entries)) });
    } catch (error) {
      if (error instanceof InstagramError) throw new AppError("provider_unavailable", "Instagram could not be reached for a comment reply; deliver again.");
      throw error;
    }
  })
  /** POST /api/channels/instagram/authorize → {url, expiresAt}: where the browser goes to log in. 502 when Instagram is not configured. */
  .post("/authorize", ...signedIn, async (c) => {
    const origin = new URL(c.req.url).origin;
    return c.json(await startAuthorization(c.env, c.var.db, { companyId: c.var.company.id, userId: c.var.user.id, origin }));
  })
  /** POST /api/channels/instagram/callback {code, state} → ConnectionAnswer (see completeAuthorization for errors). */
  .post("/callback", ...signedIn, zv("json", instagramCallbackInput), async (c) => {
    const input = c.req.valid("json");
    const row = await completeAuthorization(c.env, c.var.db, { companyId: c.var.company.id, userId: c.var.user.id, code: input.code, state: input.state });
    return c.json(presentConnection(row));
  });

const connectionParam = z.object({ id: idSchema });
const ruleParam = z.object({ id: idSchema, ruleId: idSchema });

/** The company's Instagram connection `id` (404 for another company's; 400 for another channel). */
async function instagramConnection(db: Db, companyId: string, id: string): Promise<ConnectionRow> {
  const row = await db.query.connections.findFirst({ where: and(eq(connections.id, id), eq(connections.companyId, companyId)) });
  if (!row) throw notFound("Connection");
  if (row.channel !== "instagram") throw new AppError("validation_failed", "Comment automations are for Instagram connections.", { channel: "not_instagram" });
  return row;
}

async function checkFlow(db: Db, companyId: string, flowId: string | null): Promise<void> {
  if (flowId && !(await existingFlowIds(db, companyId, [flowId])).has(flowId)) throw new AppError("validation_failed", "That flow does not exist.", { flowId: "invalid_id" });
}

export const instagramCommentRulesRoutes = new Hono<HonoEnv>()
  /** GET /api/connections/{id}/comment-rules → CommentRuleAnswer[], oldest first. */
  .get("/:id/comment-rules", ...signedIn, zv("param", connectionParam), async (c) => {
    const connection = await instagramConnection(c.var.db, c.var.company.id, c.req.valid("param").id);
    const rows = await c.var.db
      .select()
      .from(instagramCommentRules)
      .where(and(eq(instagramCommentRules.connectionId, connection.id), eq(instagramCommentRules.companyId, c.var.company.id)))
      .orderBy(asc(instagramCommentRules.createdAt), asc(instagramCommentRules.id));
    return c.json(rows.map(presentCommentRule));
  })
  /** POST /api/connections/{id}/comment-rules → 201 CommentRuleAnswer. */
  .post("/:id/comment-rules", ...signedIn, zv("param", connectionParam), zv("json", commentRuleInput), async (c) => {
    const companyId = c.var.company.id;
    const connection = await instagramConnection(c.var.db, companyId, c.req.valid("param").id);
    const input = c.req.valid("json");
    await checkFlow(c.var.db, companyId, input.flowId);
    const at = now();
    const [row] = await c.var.db
      .insert(instagramCommentRules)
      .values({
        id: newId(),
        companyId,
        connectionId: connection.id,
        name: input.name,
        active: input.active,
        rules: input.rules,
        mediaIds: input.mediaIds && input.mediaIds.length > 0 ? input.mediaIds : null,
        privateReply: input.privateReply,
        publicReply: input.publicReply?.trim() ? input.publicReply : null,
        flowId: input.flowId,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    if (!row) throw new Error("comment rule not inserted");
    return c.json(presentCommentRule(row), 201);
  })
  /** PUT /api/connections/{id}/comment-rules/{ruleId} (the whole rule) → CommentRuleAnswer. */
  .put("/:id/comment-rules/:ruleId", ...signedIn, zv("param", ruleParam), zv("json", commentRuleInput), async (c) => {
    const companyId = c.var.company.id;
    const { id, ruleId } = c.req.valid("param");
    const connection = await instagramConnection(c.var.db, companyId, id);
    const input = c.req.valid("json");
    await checkFlow(c.var.db, companyId, input.flowId);
    const [row] = await c.var.db
      .update(instagramCommentRules)
      .set({
        name: input.name,
        active: input.active,
        rules: input.rules,
        mediaIds: input.mediaIds && input.mediaIds.length > 0 ? input.mediaIds : null,
        privateReply: input.privateReply,
        publicReply: input.publicReply?.trim() ? input.publicReply : null,
        flowId: input.flowId,
        updatedAt: now(),
      })
      .where(and(eq(instagramCommentRules.id, ruleId), eq(instagramCommentRules.connectionId, connection.id), eq(instagramCommentRules.companyId, companyId)))
      .returning();
    if (!row) throw notFound("Comment rule");
    return c.json(presentCommentRule(row));
  })
  /** DELETE /api/connections/{id}/comment-rules/{ruleId} → 204. */
  .delete("/:id/comment-rules/:ruleId", ...signedIn, zv("param", ruleParam), async (c) => {
    const companyId = c.var.company.id;
    const { id, ruleId } = c.req.valid("param");
    const connection = await instagramConnection(c.var.db, companyId, id);
    const [row] = await c.var.db
      .delete(instagramCommentRules)
      .where(and(eq(instagramCommentRules.id, ruleId), eq(instagramCommentRules.connectionId, connection.id), eq(instagramCommentRules.companyId, companyId)))
      .returning({ id: instagramCommentRules.id });
    if (!row) throw notFound("Comment rule");
    return c.body(null, 204);
  });
