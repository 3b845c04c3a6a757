/**
 * The Hono app: middleware, one sub-app per resource under /api, and the error envelope.
 * Everything that is not /api is served by the static assets (the React app, SPA fallback).
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError } from "./lib/errors";
import { getDb } from "./lib/db";
import { apiSecurityHeaders } from "./lib/security-headers";
import type { HonoEnv } from "./middleware/context";
import { accounts } from "./routes/accounts";
import { me, userRoutes } from "./routes/me";
import { companiesRoutes } from "./routes/companies";
import { membersRoutes } from "./routes/members";
import { rolesRoutes } from "./routes/roles";
import { publicRoutes } from "./routes/public";
import { files } from "./routes/files";
import { connectionsRoutes } from "./routes/connections";
import { rejectedEventsRoutes } from "./routes/rejected-events";
import { channelsRoutes } from "./routes/channels";
import { instagramChannelRoutes, instagramCommentRulesRoutes } from "./routes/instagram";
import { ticketsRoutes } from "./routes/tickets";
import { realtimeRoutes } from "./routes/realtime";
import { mediaRoutes } from "./routes/media";
import { devBenchRoutes } from "./routes/dev-bench";
import { contactFileRoutes, jobsRoutes } from "./routes/jobs";
import { contactsRoutes } from "./routes/contacts";
import { customFieldsRoutes } from "./routes/custom-fields";
import { tagsRoutes } from "./routes/tags";
import { crmRoutes } from "./routes/crm";
import { quickMessagesRoutes } from "./routes/quick-messages";
import { flowsRoutes, foldersRoutes, shareFlowRoutes } from "./routes/flows";
import { keywordsRoutes } from "./routes/keywords";
import { contactCyclesRoutes, shippingCyclesRoutes } from "./routes/shipping-cycles";
import { templatesRoutes } from "./routes/templates";
import { broadcastsRoutes } from "./routes/broadcasts";
import { dashboardRoutes } from "./routes/dashboard";
import { adminAnnouncementsRoutes } from "./routes/admin-announcements";
import { webhooksRoutes } from "./routes/webhooks";
import { hooksRoutes } from "./routes/hooks";
import { contactRunsRoutes, defaultFlowsRoutes, ticketFlowRoutes } from "./routes/flow-runs";
import { v1Routes } from "./routes/v1";
import { eventSubscriptionsRoutes } from "./routes/event-subscriptions";
import { operatingHoursRoutes } from "./routes/operating-hours";
import { dataCleanupRoutes } from "./routes/data-cleanup";
import { internalChatsRoutes } from "./routes/internal-chats";
import { billingPublicRoutes, devClockRoutes, invoicesRoutes, plansRoutes, subscriptionRoutes } from "./routes/billing";
import { adminCouponsRoutes, adminPlansRoutes } from "./routes/admin-plans";
import { franchiseRoutes } from "./routes/franchise";
import { adminFranchisesRoutes } from "./routes/admin-franchises";

export const app = new Hono<HonoEnv>().basePath("/api");

// nosniff, a no-source CSP and no referrer on every API answer (worker/lib/security-headers.ts).
app.use(apiSecurityHeaders);

app.use(async (c, next) => {
  c.set("db", getDb(c.env.DB));
  await next();
});

const routes = app
  .route("/", publicRoutes)
  .route("/", accounts)
  .route("/me", me)
  .route("/companies/members", membersRoutes)
  .route("/companies/roles", rolesRoutes)
  .route("/companies/default-flows", defaultFlowsRoutes)
  .route("/companies/operating-hours", operatingHoursRoutes)
  .route("/companies/delete-data", dataCleanupRoutes)
  .route("/companies/subscription", subscriptionRoutes)
  .route("/companies", companiesRoutes)
  .route("/user", userRoutes)
  .route("/files", files)
  // Before connectionsRoutes: templates are readable with `broadcasts` or `flow` too.
  .route("/connections", templatesRoutes)
  // Before connectionsRoutes and channelsRoutes: Instagram's comment rules and its own webhook (issue 15).
  .route("/connections", instagramCommentRulesRoutes)
  .route("/connections", connectionsRoutes)
  .route("/connections", rejectedEventsRoutes)
  .route("/channels/instagram", instagramChannelRoutes)
  .route("/channels", channelsRoutes)
  .route("/tickets", ticketFlowRoutes)
  .route("/tickets", ticketsRoutes)
  .route("/ws", realtimeRoutes)
  .route("/media", mediaRoutes)
  // Before devBenchRoutes (whose gate answers 404 for every /dev path without BENCH_ENDPOINTS).
  .route("/dev/clock", devClockRoutes)
  .route("/dev", devBenchRoutes)
  // Before contactsRoutes: POST /contacts/import and /contacts/export are answered here.
  .route("/contacts", contactFileRoutes)
  .route("/jobs", jobsRoutes)
  .route("/contacts", contactRunsRoutes)
  .route("/contacts", contactCyclesRoutes)
  .route("/contacts", contactsRoutes)
  .route("/custom-fields", customFieldsRoutes)
  .route("/tags", tagsRoutes)
  .route("/crm", crmRoutes)
  .route("/quick-messages", quickMessagesRoutes)
  .route("/folders", foldersRoutes)
  .route("/flows", flowsRoutes)
  .route("/share-flow", shareFlowRoutes)
  .route("/keywords", keywordsRoutes)
  .route("/broadcasts", broadcastsRoutes)
  .route("/shipping-cycles", shippingCyclesRoutes)
  // The public API (company API keys only) and its OpenAPI document.
  .route("/v1", v1Routes)
  .route("/event-subscriptions", eventSubscriptionsRoutes)
  .route("/webhooks", webhooksRoutes)
  .route("/hooks", hooksRoutes)
  .route("/internal-chats", internalChatsRoutes)
  .route("/dashboard", dashboardRoutes)
  .route("/admin/announcements", adminAnnouncementsRoutes)
  .route("/plans", plansRoutes)
  .route("/invoices", invoicesRoutes)
  .route("/billing", billingPublicRoutes)
  .route("/admin/plans", adminPlansRoutes)
  .route("/admin/coupons", adminCouponsRoutes)
  // Franchises (issue 14): 404 for all of them while FRANCHISE_MODE is off (worker/middleware/franchise.ts).
  .route("/franchise", franchiseRoutes)
  .route("/admin/franchises", adminFranchisesRoutes);

app.notFound((c) => c.json({ error: { code: "not_found", message: `No route for ${c.req.method} ${c.req.path}.` } }, 404));

app.onError((err, c) => {
  if (err instanceof AppError) {
    for (const [name, value] of Object.entries(err.headers ?? {})) c.header(name, value);
    return c.json({ error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) } }, err.status);
  }
  if (err instanceof HTTPException && err.status < 500) {
    // Hono raises these for malformed bodies (e.g. invalid JSON): a client error, never a 500.
    const code = err.status === 401 ? "unauthorized" : err.status === 413 ? "payload_too_large" : "validation_failed";
    return c.json({ error: { code, message: err.message || "Bad request." } }, err.status);
  }
  console.error("[unhandled]", c.req.method, c.req.path, err);
  return c.json({ error: { code: "internal", message: "An error occurred. Try again." } }, 500);
});

export type AppType = typeof routes;
