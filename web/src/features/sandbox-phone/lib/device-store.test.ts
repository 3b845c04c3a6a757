import { describe, expect, it } from "vitest";
import { createPhoneStore, DEVICE_KEY, displayPhone, normalisePhone, randomCustomerPhone, type PhoneStorage } from "./device-store";
import { formatDuration, recordingMimeType } from "./media";

function memory(): PhoneStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe("phone store", () => {
  it("keeps the device under sandbox.device and forgets it", () => {
    const storage = memory();
    const store = createPhoneStore(() => storage);
    expect(store.device()).toBeNull();
    store.saveDevice({ token: "t", connection: { id: "c", name: "Demo" }, pairedAt: 1 });
    expect(JSON.parse(storage.data.get(DEVICE_KEY) ?? "{}")).toMatchObject({ token: "t" });
    expect(store.device()?.connection.name).toBe("Demo");
    store.forgetDevice();
    expect(store.device()).toBeNull();
  });
  it("ignores corrupt data", () => {
    const storage = memory();
    storage.setItem(DEVICE_KEY, "{not json");
    expect(createPhoneStore(() => storage).device()).toBeNull();
  });
  it("keeps customers by phone, newest first", () => {
    const storage = memory();
    const store = createPhoneStore(() => storage);
    store.saveCustomer({ name: "Ana", phone: "+5511911111111" });
    store.saveCustomer({ name: "Bia", phone: "+5511922222222" });
    const list = store.saveCustomer({ name: "Ana Maria", phone: "+5511911111111" });
    expect(list.map((c) => c.name)).toEqual(["Ana Maria", "Bia"]);
    expect(store.removeCustomer("+5511922222222")).toHaveLength(1);
  });
  it("remembers read marks only forward", () => {
    const storage = memory();
    const store = createPhoneStore(() => storage);
    store.markRead("c", "+1", 10);
    store.markRead("c", "+1", 5);
    expect(store.readUpTo("c", "+1")).toBe(10);
    expect(store.readUpTo("c", "+2")).toBe(0);
  });
});

describe("phones", () => {
  it("normalises typed numbers to E.164", () => {
    expect(normalisePhone("+55 11 91234-5678")).toBe("+5511912345678");
    expect(normalisePhone("123")).toBeNull();
  });
  it("suggests valid Brazilian mobiles", () => {
    const phone = randomCustomerPhone(() => 0.5);
    expect(phone).toBe("+55 11 95555-5555");
    expect(normalisePhone(phone)).toBe("+5511955555555");
    expect(displayPhone("+5511955555555")).toBe(phone);
  });
});

describe("media helpers", () => {
  it("picks a supported recording type", () => {
    expect(recordingMimeType((type) => type === "audio/webm")).toBe("audio/webm");
    expect(recordingMimeType(() => false)).toBe("");
    expect(formatDuration(65.4)).toBe("1:05");
  });
});
