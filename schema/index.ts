/** Every Drizzle table, for drizzle-kit and the worker's `drizzle(env.DB, { schema })`. */
export * from "./users";
export * from "./companies";
export * from "./roles";
export * from "./members";
export * from "./invites";
export * from "./auth";
export * from "./announcements";
export * from "./connections";
export * from "./contacts";
export * from "./tickets";
export * from "./custom-fields";
export * from "./tags";
export * from "./crm";
export * from "./quick-messages";
export * from "./jobs";
