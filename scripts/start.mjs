// `npm start`: the whole product locally on its embedded default (local D1, R2, Queues, Durable
// Objects inside workerd): migrations, web build, wrangler dev on http://localhost:8787, demo data.
import { DEMO, ensureDevVars, must, seedDemo, startWrangler, waitFor, wranglerEnv } from "./lib.mjs";

const PORT = Number(process.env.PORT ?? 8787);
const base = `http://localhost:${PORT}`;

if (ensureDevVars()) console.log("Generated .dev.vars with a random JWT_SECRET.");
await must("wrangler", ["d1", "migrations", "apply", "DB", "--local"], { env: wranglerEnv });
await must("vite", ["build", "--config", "web/vite.config.ts"]);

// The dev mail outbox (reset links, verification codes in D1, printed as [mail outbox] lines) is
// for local development only: switched on here, never in a deployed configuration.
// The demo owner is the local platform administrator (issue 12: the Admin area, announcements);
// PLATFORM_ADMINS in the environment overrides it.
const server = startWrangler(PORT, ["--var", "MAIL_OUTBOX:on", "--var", `PLATFORM_ADMINS:${process.env.PLATFORM_ADMINS ?? DEMO.email}`]);
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));

await waitFor(`${base}/api/health`);
const seeded = await seedDemo(base);
console.log(`
  Conversa is running at ${base}
  Demo owner (${seeded}): ${DEMO.email} / ${DEMO.password}
  Dev mail outbox: printed above as [mail outbox] lines.
`);
