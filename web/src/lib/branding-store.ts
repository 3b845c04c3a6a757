/**
 * The runtime settings and franchise info of the visit (spec §1 branding; issue 14), held without
 * react-query so the auth pages, which show the brand, do not load it (issue 9 "Load only what a
 * screen needs"). One GET /api/runtime-settings per visit; GET /api/infos only in franchise mode.
 * The react-query queries of branding.ts read through here too: their first fetch shares the
 * boot request, a later one (an invalidation after the franchise's settings change) fetches again
 * and updates what every brand hook shows.
 */
import { useSyncExternalStore } from "react";
import { franchiseInfo, runtimeSettings, type FranchiseInfo } from "./answers-boot";
import type { RuntimeSettings } from "../../../schema/api-types";
import { api } from "./session";

/** What is known so far; undefined while not loaded (or the call failed). */
export type BrandingState = { settings?: RuntimeSettings; franchise?: FranchiseInfo };

let state: BrandingState = {};
const listeners = new Set<() => void>();

function update(next: BrandingState): void {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

/**
 * One answer shared between the boot load and the first query: `load()` starts (once) and returns
 * the boot request; `query()` hands that same request to the first query call, then fetches anew.
 */
function shared<T>(fetch: (signal?: AbortSignal) => Promise<T>, store: (value: T) => void) {
  let boot: Promise<T> | null = null;
  let handed = false;
  const run = (signal?: AbortSignal) =>
    fetch(signal).then((value) => {
      store(value);
      return value;
    });
  const load = () => {
    boot ??= run().catch((error: unknown) => {
      boot = null;
      throw error;
    });
    return boot;
  };
  return {
    load,
    query: (signal?: AbortSignal) => {
      if (!handed) {
        handed = true;
        return load();
      }
      return run(signal);
    },
  };
}

/** GET /api/runtime-settings. */
export const runtimeSettingsSource = shared(
  (signal) => api.call("GET", "/runtime-settings", runtimeSettings, { signal }),
  (settings) => update({ settings }),
);

/** GET /api/infos (only called in franchise mode). */
export const franchiseInfoSource = shared(
  (signal) => api.call("GET", "/infos", franchiseInfo, { signal }),
  (franchise) => update({ franchise }),
);

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => state;

/**
 * The branding known so far; starts the runtime-settings load, and the franchise-info load once
 * franchise mode is known to be on (`franchiseMode`: the setting, else the document's boot branding).
 */
export function useBrandingState(bootFranchiseMode: boolean): BrandingState & { franchiseMode: boolean } {
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  const franchiseMode = current.settings ? current.settings.franchiseMode : bootFranchiseMode;
  if (!current.settings) void runtimeSettingsSource.load().catch(() => undefined);
  if (franchiseMode && !current.franchise) void franchiseInfoSource.load().catch(() => undefined);
  return { ...current, franchiseMode };
}
