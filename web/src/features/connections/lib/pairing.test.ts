import { describe, expect, it } from "vitest";
import type { Connection } from "../api/connections-api";
import { applyConnectionUpdate, formatPairingCode, isConnected, refreshDelay, secondsLeft } from "./pairing";

const base: Connection = {
  id: "c1",
  name: "Sandbox",
  channel: "sandbox",
  phone: null,
  greetingMessage: "",
  farewellMessage: "",
  status: "DISCONNECTED",
  connected: false,
  phoneNumberId: null,
  wabaId: null,
  accessTokenHint: null,
  displayPhoneNumber: null,
  verifiedName: null,
  qualityRating: null,
  rejectedCount: 0,
  messagingLimit: null,
  createdAt: 1,
};

describe("formatPairingCode", () => {
  it("shows the 8 characters as XXXX-XXXX", () => {
    expect(formatPairingCode("ABCD2345")).toBe("ABCD-2345");
    expect(formatPairingCode("abcd-2345")).toBe("ABCD-2345");
  });
  it("leaves short input alone", () => {
    expect(formatPairingCode("AB")).toBe("AB");
  });
});

describe("countdown and refresh", () => {
  it("counts whole seconds, never below zero", () => {
    expect(secondsLeft(10_500, 0)).toBe(11);
    expect(secondsLeft(1_000, 5_000)).toBe(0);
  });
  it("refreshes 5 s before expiry, at least 1 s later", () => {
    expect(refreshDelay(60_000, 0)).toBe(55_000);
    expect(refreshDelay(3_000, 0)).toBe(1_000);
  });
});

describe("applyConnectionUpdate", () => {
  it("updates status and connected of the matching row", () => {
    const next = applyConnectionUpdate([base], { id: "c1", name: "Sandbox", status: "CONNECTED" });
    expect(next?.[0]?.connected).toBe(true);
    expect(next?.[0]?.status).toBe("CONNECTED");
  });
  it("answers null for an unknown connection", () => {
    expect(applyConnectionUpdate([base], { id: "c2", name: "X", status: "CONNECTED" })).toBeNull();
  });
  it("only CONNECTED is connected", () => {
    expect(isConnected("PAIRING")).toBe(false);
  });
});
