/**
 * The Cloudflare custom hostnames adapter (issue 14) against standins/cloudflare.ts on loopback:
 * create with ssl {method, type: "dv"}, the DNS records to show, polling pending → active, delete,
 * and Cloudflare's error envelope (duplicate, bad token) as CustomHostnameError.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  createCustomHostname,
  CustomHostnameError,
  customHostnamesConfig,
  deleteCustomHostname,
  getCustomHostname,
  isLocalHostname,
  verificationRecordsOf,
} from "./custom-hostnames";
import type { AppEnv } from "../env";

const config = () => {
  const c = customHostnamesConfig(env as AppEnv);
  if (!c) throw new Error("CF_API_TOKEN / CF_ZONE_ID missing in vitest.config.mts");
  return c;
};
const host = () => `chat-${crypto.randomUUID().slice(0, 8)}.acme.example`;

describe("custom hostnames adapter (Cloudflare for SaaS)", () => {
  it("registers a hostname with TXT validation and answers the DNS records to create", async () => {
    const hostname = host();
    const ch = await createCustomHostname(config(), hostname, "txt");
    expect(ch).toMatchObject({ hostname, status: "pending" });
    expect(ch.ssl?.status).toBe("pending_validation");
    const records = verificationRecordsOf(ch);
    expect(records).toEqual([
      { type: "TXT", name: `_cf-custom-hostname.${hostname}`, value: expect.any(String), purpose: "ownership" },
      { type: "TXT", name: `_acme-challenge.${hostname}`, value: expect.any(String), purpose: "ssl" },
    ]);
  });

  it("answers HTTP validation records for method http", async () => {
    const ch = await createCustomHostname(config(), host(), "http");
    expect(verificationRecordsOf(ch).filter((r) => r.purpose === "ssl")).toEqual([{ type: "HTTP", name: expect.stringMatching(/^http:\/\//), value: expect.any(String), purpose: "ssl" }]);
  });

  it("polls the status from pending to active once Cloudflare validated it", async () => {
    const ch = await createCustomHostname(config(), host());
    expect((await getCustomHostname(config(), ch.id)).status).toBe("pending");
    await fetch(`${env.CF_STANDIN_ORIGIN}/__activate/${ch.id}`, { method: "POST" });
    const now = await getCustomHostname(config(), ch.id);
    expect(now.status).toBe("active");
    expect(now.ssl?.status).toBe("active");
    expect(verificationRecordsOf(now).filter((r) => r.purpose === "ssl")).toEqual([]);
  });

  it("deletes a hostname (and a second delete is not an error)", async () => {
    const ch = await createCustomHostname(config(), host());
    await deleteCustomHostname(config(), ch.id);
    await expect(getCustomHostname(config(), ch.id)).rejects.toMatchObject({ status: 404 });
    await deleteCustomHostname(config(), ch.id);
  });

  it("turns Cloudflare's error envelope into CustomHostnameError: duplicate, bad token", async () => {
    const hostname = host();
    await createCustomHostname(config(), hostname);
    const duplicate = await createCustomHostname(config(), hostname).catch((e: unknown) => e);
    expect(duplicate).toBeInstanceOf(CustomHostnameError);
    expect(duplicate).toMatchObject({ status: 409, code: 1406 });
    const badToken = await createCustomHostname({ ...config(), token: "wrong" }, host()).catch((e: unknown) => e);
    expect(badToken).toMatchObject({ status: 401, code: 10000 });
  });

  it("is not configured without a token or zone, and *.localhost is never registered", () => {
    expect(customHostnamesConfig({ CF_API_URL: undefined, CF_API_TOKEN: undefined, CF_ZONE_ID: "z" })).toBeNull();
    expect(customHostnamesConfig({ CF_API_URL: undefined, CF_API_TOKEN: "t", CF_ZONE_ID: "z" })?.apiUrl).toBe("https://api.cloudflare.com/client/v4");
    expect(isLocalHostname("acme.localhost")).toBe(true);
    expect(isLocalHostname("acme.example.com")).toBe(false);
  });
});
