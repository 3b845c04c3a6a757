/**
 * One key per job (issue 8 §6): session tokens, encryption at rest and media-URL signatures use
 * three different keys derived with HKDF; a value made for one job is refused by another; provider
 * tokens encrypted before the separation still decrypt. Session tokens refuse missing or mistyped
 * claims (issue 8 §3).
 */
import { env } from "cloudflare:test";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../env";
import { call, expectError, expectStatus, me, register } from "../test/helpers";
import { toBase64 } from "./crypto";
import { verifySession } from "./jwt";
import { KEY_LABELS, deriveKey, encryptionSecret, mediaUrlKey, sessionKey } from "./keys";
import { signedMediaUrl, verifyMediaSignature } from "./media";
import { decryptSecret, encryptSecret, isLegacySecret, upgradeSecret } from "./secrets";

const ROOT = "test-secret-test-secret-test-secret-0123";
const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** The worker's environment with only JWT_SECRET set (no SECRETS_KEY, no MEDIA_URL_KEY). */
function oneSecret(): AppEnv {
  const { SECRETS_KEY: _s, MEDIA_URL_KEY: _m, ...rest } = env as AppEnv;
  return { ...rest, JWT_SECRET: ROOT };
}

/** AES-GCM with SHA-256(secret) as key, base64(iv ‖ ciphertext): how tokens were stored before. */
async function legacyEncrypt(secret: string, plaintext: string): Promise<string> {
  const raw = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, new TextEncoder().encode(plaintext)));
  const out = new Uint8Array(12 + data.length);
  out.set(iv, 0);
  out.set(data, 12);
  return toBase64(out);
}

async function hmacHex(key: Uint8Array, text: string): Promise<string> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(text))));
}

describe("one key per job (HKDF-SHA256 from one secret)", () => {
  it("the session, encryption and media-URL keys differ from each other and from the secret, with only JWT_SECRET set", async () => {
    const e = oneSecret();
    const session = hex(await sessionKey(e));
    const encryption = hex(await deriveKey(encryptionSecret(e), "encryption"));
    const media = hex(await mediaUrlKey(e));
    expect(new Set([session, encryption, media, hex(new TextEncoder().encode(ROOT))]).size).toBe(4);
    expect(session).toHaveLength(64);
    expect(Object.values(KEY_LABELS)).toEqual(["conversa/session", "conversa/encryption", "conversa/media-url"]);
  });

  it("the key is HKDF-SHA256 of the secret with the job's info label (stable across calls)", async () => {
    const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(ROOT), "HKDF", false, ["deriveBits"]);
    const bits = await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode("conversa/hkdf-salt/v1"), info: new TextEncoder().encode("conversa/media-url") },
      material,
      256,
    );
    expect(hex(await mediaUrlKey(oneSecret()))).toBe(hex(new Uint8Array(bits)));
    expect(hex(await deriveKey(ROOT, "session"))).toBe(hex(await deriveKey(ROOT, "session")));
  });

  it("explicit SECRETS_KEY and MEDIA_URL_KEY take precedence over JWT_SECRET", async () => {
    const e = { ...oneSecret(), SECRETS_KEY: "another-secret-for-encryption-at-rest", MEDIA_URL_KEY: "another-secret-for-media-urls-000" };
    expect(encryptionSecret(e)).toBe("another-secret-for-encryption-at-rest");
    expect(hex(await mediaUrlKey(e))).not.toBe(hex(await mediaUrlKey(oneSecret())));
    expect(hex(await mediaUrlKey(e))).toBe(hex(await deriveKey("another-secret-for-media-urls-000", "mediaUrl")));
    expect(hex(await sessionKey(e))).toBe(hex(await sessionKey(oneSecret())));
  });

  it("an empty secret derives no key", () => {
    expect(() => deriveKey("", "session")).toThrow(/JWT_SECRET/);
  });
});

describe("a value made for one job is refused by another", () => {
  it("a JWT signed with the media-URL key is not a session (401)", async () => {
    const account = await register();
    const user = await me(account.token);
    const forged = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(await mediaUrlKey(env as AppEnv));
    await expectError(await call("GET", "/api/me", { token: forged }), 401, "unauthorized");
    // Nor one signed with the raw secret (how sessions were signed before the separation).
    const raw = await new SignJWT({ ver: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode((env as AppEnv).JWT_SECRET));
    await expectError(await call("GET", "/api/me", { token: raw }), 401, "unauthorized");
  });

  it("a media signature made with the session key (or the raw secret) does not verify; the media key's does", async () => {
    const e = env as AppEnv;
    const key = "media/company/file.pdf";
    const exp = Date.now() + 60_000;
    expect(await verifyMediaSignature(e, key, exp, await hmacHex(await sessionKey(e), `${key}:${exp}`))).toBe(false);
    expect(await verifyMediaSignature(e, key, exp, await hmacHex(new TextEncoder().encode(e.JWT_SECRET), `${key}:${exp}`))).toBe(false);
    expect(await verifyMediaSignature(e, key, exp, await hmacHex(await mediaUrlKey(e), `${key}:${exp}`))).toBe(true);
    const signed = new URL(await signedMediaUrl(e, key), "http://x");
    expect(await verifyMediaSignature(e, key, Number(signed.searchParams.get("exp")), signed.searchParams.get("sig") ?? "")).toBe(true);
  });
});

describe("encryption at rest", () => {
  it("a token encrypted under the legacy key (SHA-256 of the secret) still decrypts, and can be re-encrypted under the new key", async () => {
    const secret = encryptionSecret(env as AppEnv);
    const legacy = await legacyEncrypt(secret, "EAAG-old-token");
    expect(isLegacySecret(legacy)).toBe(true);
    expect(await decryptSecret(secret, legacy)).toBe("EAAG-old-token");
    const upgraded = await upgradeSecret(secret, legacy);
    expect(upgraded?.startsWith("v2:")).toBe(true);
    expect(await decryptSecret(secret, upgraded!)).toBe("EAAG-old-token");
    expect(await upgradeSecret(secret, upgraded!)).toBeNull();
  });

  it("new values are encrypted under the derived key, not the legacy one", async () => {
    const secret = encryptionSecret(env as AppEnv);
    const stored = await encryptSecret(secret, "EAAG-new-token");
    expect(stored.startsWith("v2:")).toBe(true);
    await expect(decryptSecret(secret, stored.slice(3))).rejects.toThrow();
    await expect(decryptSecret("a-different-secret-a-different-secret", stored)).rejects.toThrow();
  });

  it("a Cloud API connection whose token was stored under the legacy key still sends", async () => {
    const { cloudConnection, sentTo, ACCESS_TOKEN } = await import("../test/channel-helpers");
    const owner = await register();
    const conn = await cloudConnection(owner.token);
    const legacy = await legacyEncrypt(encryptionSecret(env as AppEnv), ACCESS_TOKEN);
    await env.DB.prepare("UPDATE connections SET access_token_enc = ? WHERE id = ?").bind(legacy, conn.id).run();
    const { deliverOk, textWebhook, uniqueWaId, wamid, listTickets, until } = await import("../test/channel-helpers");
    await deliverOk(textWebhook(conn.phoneNumberId, uniqueWaId(), wamid(), "Olá"));
    const ticket = (await listTickets(owner.token)).results[0]!;
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/open`, { token: owner.token }), 200);
    await expectStatus(await call("POST", `/api/tickets/${ticket.id}/messages`, { token: owner.token, body: { type: "text", body: "Resposta" } }), 201);
    const sent = await until(() => sentTo(conn.phoneNumberId), (s) => s.length > 0, "the send to reach the stand-in");
    expect(sent[0]?.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
  });
});

describe("session tokens need exp, iat, sub and ver of the right types (401 otherwise)", () => {
  async function tokenWith(claims: Record<string, unknown>, build: (j: SignJWT) => SignJWT = (j) => j) {
    return build(new SignJWT(claims).setProtectedHeader({ alg: "HS256" })).sign(await sessionKey(env as AppEnv));
  }

  it("a token without exp answers 401; the same token with exp answers 200", async () => {
    const account = await register();
    const user = await me(account.token);
    const noExp = await tokenWith({ ver: 0 }, (j) => j.setSubject(user.id).setIssuedAt());
    await expectError(await call("GET", "/api/me", { token: noExp }), 401, "unauthorized");
    const withExp = await tokenWith({ ver: 0 }, (j) => j.setSubject(user.id).setIssuedAt().setExpirationTime("1h"));
    await expectStatus(await call("GET", "/api/me", { token: withExp }), 200);
  });

  it("missing iat, missing or numeric sub, missing, string or negative ver, a future iat: each 401", async () => {
    const account = await register();
    const user = await me(account.token);
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, unknown>[] = [
      { sub: user.id, ver: 0, exp: now + 3600 },
      { ver: 0, iat: now, exp: now + 3600 },
      { sub: 42, ver: 0, iat: now, exp: now + 3600 },
      { sub: user.id, iat: now, exp: now + 3600 },
      { sub: user.id, ver: "0", iat: now, exp: now + 3600 },
      { sub: user.id, ver: -1, iat: now, exp: now + 3600 },
      { sub: user.id, ver: 0.5, iat: now, exp: now + 3600 },
      { sub: user.id, ver: 0, iat: now + 3600, exp: now + 7200 },
      { sub: user.id, ver: 0, iat: String(now), exp: now + 3600 },
    ];
    for (const claims of cases) {
      const token = await tokenWith(claims);
      const res = await call("GET", "/api/me", { token });
      expect(res.status, JSON.stringify(claims)).toBe(401);
    }
    expect(await verifySession((env as AppEnv).JWT_SECRET, await tokenWith({ sub: user.id, ver: 0, iat: now, exp: now + 3600 }))).toMatchObject({
      sub: user.id,
      ver: 0,
    });
  });
});
