import { describe, expect, it } from "vitest";
import { COPIED_FEEDBACK_MS, createCopyFeedback, type CopyStatus, type TimerLike } from "./copy-feedback";

/** A manual timer: `run()` fires what is pending, as if the time had passed. */
function manualTimer() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 1;
  const timer: TimerLike = {
    set: (callback, ms) => {
      const id = next++;
      pending.set(id, { callback, ms });
      return id;
    },
    clear: (handle) => void pending.delete(handle as number),
  };
  return {
    timer,
    delays: () => [...pending.values()].map((entry) => entry.ms),
    run() {
      const due = [...pending.values()];
      pending.clear();
      for (const entry of due) entry.callback();
    },
  };
}

describe("the PIX copy-and-paste button", () => {
  it("writes the payload to the clipboard, shows 'copied', then returns to idle", async () => {
    const written: string[] = [];
    const statuses: CopyStatus[] = [];
    const clock = manualTimer();
    const copy = createCopyFeedback({ writeText: async (text) => void written.push(text) }, clock.timer, (s) => statuses.push(s));
    const payload = "00020101021226820014br.gov.bcb.pix2560qrpix.example/qr/v2/cobv/abc5204000053039865406100.005802BR6304ABCD";
    expect(await copy.copy(payload)).toBe("copied");
    expect(written).toEqual([payload]);
    expect(statuses).toEqual(["copied"]);
    expect(clock.delays()).toEqual([COPIED_FEEDBACK_MS]);
    clock.run();
    expect(statuses).toEqual(["copied", "idle"]);
  });

  it("says 'failed' when the clipboard refuses or does not exist", async () => {
    const statuses: CopyStatus[] = [];
    const refusing = createCopyFeedback({ writeText: () => Promise.reject(new Error("NotAllowedError")) }, manualTimer().timer, (s) => statuses.push(s));
    expect(await refusing.copy("x")).toBe("failed");
    const missing = createCopyFeedback(undefined, manualTimer().timer, (s) => statuses.push(s));
    expect(await missing.copy("x")).toBe("failed");
    expect(statuses).toEqual(["failed", "failed"]);
  });

  it("a second copy restarts the feedback instead of letting the first reset cut it short", async () => {
    const statuses: CopyStatus[] = [];
    const clock = manualTimer();
    const copy = createCopyFeedback({ writeText: async () => undefined }, clock.timer, (s) => statuses.push(s));
    await copy.copy("a");
    await copy.copy("a");
    expect(clock.delays()).toHaveLength(1);
    copy.dispose();
    expect(clock.delays()).toHaveLength(0);
    expect(statuses).toEqual(["copied", "copied"]);
  });
});
