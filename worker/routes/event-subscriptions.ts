/**
 * Outbound event subscriptions (issue 11 "Outbound event webhooks"), on Settings → Integration:
 * permission `settings_company` (the permission of that screen, web/src/app/route-permissions.ts).
 * Another company's subscription answers 404. A company without the `integration` feature (issue
 * 14, worker/lib/features.ts) gets 403. Deliveries: worker/lib/event-subscriptions.ts.
 *
 * - GET /api/event-subscriptions → EventSubscriptionAnswer[] newest first (never the secret).
 * - POST /api/event-subscriptions {url, events[]} → 201 EventSubscriptionCreatedAnswer with the
 *   signing secret, shown this once. 400 names `url` (https only; private, loopback, link-local and
 *   local names refused by the integration block's guard: `private_address`, `local_name` …) or
 *   `events`; 409 `conflict` beyond 20 subscriptions.
 * - DELETE /api/event-subscriptions/{id} → 204 (its deliveries and their attempts go too).
 * - GET /api/event-subscriptions/{id}/deliveries → EventDeliveryAnswer[]: the latest 50 deliveries,
 *   newest first, each with every attempt (status code or error, duration, time).
 */
import { Hono } from "hono";
import { z } from "zod";
import { idSchema } from "../../schema/validation/common";
import { eventSubscriptionInput } from "../../schema/validation/event-subscriptions";
import type { HonoEnv } from "../middleware/context";
import { requireCompany, requirePermission, requireUser } from "../middleware/auth";
import { createEventSubscription, deleteEventSubscription, listDeliveries, listEventSubscriptions } from "../lib/event-subscriptions";
import { zv } from "../lib/validate";
import { requireFeature } from "../lib/features";

const idParam = z.object({ id: idSchema });

export const eventSubscriptionsRoutes = new Hono<HonoEnv>()
  .use(requireUser, requireCompany, requirePermission("settings_company"), requireFeature("integration"))
  /** GET /api/event-subscriptions → EventSubscriptionAnswer[]. */
  .get("/", async (c) => c.json(await listEventSubscriptions(c.var.db, c.var.company.id)))
  /** POST /api/event-subscriptions → 201 EventSubscriptionCreatedAnswer (the secret shown once). */
  .post("/", zv("json", eventSubscriptionInput), async (c) =>
    c.json(await createEventSubscription(c.env, c.var.db, c.var.company.id, c.var.memberId, c.req.valid("json")), 201),
  )
  /** DELETE /api/event-subscriptions/{id} → 204. */
  .delete("/:id", zv("param", idParam), async (c) => {
    await deleteEventSubscription(c.var.db, c.var.company.id, c.req.valid("param").id);
    return c.body(null, 204);
  })
  /** GET /api/event-subscriptions/{id}/deliveries → EventDeliveryAnswer[]. */
  .get("/:id/deliveries", zv("param", idParam), async (c) => c.json(await listDeliveries(c.var.db, c.var.company.id, c.req.valid("param").id)));
