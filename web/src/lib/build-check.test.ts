/**
 * The new-build check of spec §7 ("fetches a build manifest and a latest-build file, checking hourly
 * for a new version"): a newer deployed build moves the watcher to the prompt state; the same build
 * does nothing; a half-deployed build (no manifest) is not offered; a missing route chunk reloads
 * the page only when the user is not typing in a form.
 */
import { describe, expect, it, vi } from "vitest";
import { BuildWatcher, fetchNewerBuild, isTyping, LATEST_BUILD_PATH, BUILD_MANIFEST_PATH, type Fetcher } from "./build-check";

/** A server answering the latest-build file and the manifest; records what was asked. */
function server(latest: unknown, manifest: unknown = { "index.html": { file: "assets/index-new.js", isEntry: true } }) {
  const asked: string[] = [];
  const fetcher: Fetcher = async (input) => {
    asked.push(input);
    if (input === LATEST_BUILD_PATH) return Response.json(latest);
    if (input === BUILD_MANIFEST_PATH && manifest !== null) return Response.json(manifest);
    return new Response("not found", { status: 404 });
  };
  return { asked, fetcher };
}

describe("new-build check", () => {
  it("a newer build moves to the prompt state and prompts once, without reloading", async () => {
    const { asked, fetcher } = server({ version: "v2", builtAt: "2026-11-23T00:00:00Z", manifest: BUILD_MANIFEST_PATH });
    const onPrompt = vi.fn();
    const reload = vi.fn();
    const watcher = new BuildWatcher({ current: "v1", fetcher, onPrompt, reload, typing: () => false });
    expect(await watcher.check()).toEqual({ status: "prompt", version: "v2" });
    await watcher.check();
    expect(onPrompt).toHaveBeenCalledTimes(1);
    expect(onPrompt).toHaveBeenCalledWith("v2");
    expect(reload).not.toHaveBeenCalled();
    expect(asked).toEqual([LATEST_BUILD_PATH, BUILD_MANIFEST_PATH]);
  });

  it("the same build does nothing", async () => {
    const { asked, fetcher } = server({ version: "v1", manifest: BUILD_MANIFEST_PATH });
    const onPrompt = vi.fn();
    const watcher = new BuildWatcher({ current: "v1", fetcher, onPrompt, reload: vi.fn(), typing: () => false });
    expect(await watcher.check()).toEqual({ status: "current" });
    expect(onPrompt).not.toHaveBeenCalled();
    expect(asked).toEqual([LATEST_BUILD_PATH]);
  });

  it("a newer build whose manifest is not there yet (half deployed) is not offered", async () => {
    expect(await fetchNewerBuild("v1", server({ version: "v2" }, null).fetcher)).toBeNull();
    expect(await fetchNewerBuild("v1", server({ version: "v2" }, { "other.html": { file: "x.js" } }).fetcher)).toBeNull();
    expect(await fetchNewerBuild("v1", server({ nope: true }).fetcher)).toBeNull();
    expect(await fetchNewerBuild("v1", async () => Promise.reject(new TypeError("offline")))).toBeNull();
  });

  it("a missing route chunk never reloads a form the user is typing in; it prompts instead", () => {
    const onPrompt = vi.fn();
    const reload = vi.fn();
    const typing = new BuildWatcher({ current: "v1", fetcher: server({ version: "v1" }).fetcher, onPrompt, reload, typing: () => true });
    expect(typing.chunkFailed()).toBe(false);
    expect(reload).not.toHaveBeenCalled();
    expect(onPrompt).toHaveBeenCalledTimes(1);

    const idle = new BuildWatcher({ current: "v1", fetcher: server({ version: "v1" }).fetcher, onPrompt: vi.fn(), reload, typing: () => false });
    expect(idle.chunkFailed()).toBe(true);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("typing means a focused text field, text area, select or editable region", () => {
    expect(isTyping({ activeElement: { tagName: "INPUT", type: "email" } })).toBe(true);
    expect(isTyping({ activeElement: { tagName: "TEXTAREA" } })).toBe(true);
    expect(isTyping({ activeElement: { tagName: "DIV", isContentEditable: true } })).toBe(true);
    expect(isTyping({ activeElement: { tagName: "INPUT", type: "checkbox" } })).toBe(false);
    expect(isTyping({ activeElement: { tagName: "BUTTON" } })).toBe(false);
    expect(isTyping({ activeElement: null })).toBe(false);
    expect(isTyping(undefined)).toBe(false);
  });
});
