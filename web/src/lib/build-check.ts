/**
 * Hourly new-build check (spec §7 "fetches a build manifest ... checking hourly", §9). The build
 * writes dist/web/build.json `{version}` and embeds the same version as `__APP_VERSION__`.
 */
import { z } from "zod";

/** The version this bundle was built as. */
export const APP_VERSION: string = __APP_VERSION__;
/** One hour, in ms. */
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;

const buildFile = z.object({ version: z.string() });

/**
 * The deployed version when it differs from `current`, else null. Network or parse failures count as
 * "no news" (this is not an API call and never ends the session).
 */
export async function fetchNewerBuild(
  current: string,
  fetcher: (input: string, init: RequestInit) => Promise<Response> = (input, init) => globalThis.fetch(input, init),
): Promise<string | null> {
  try {
    const response = await fetcher("/build.json", { cache: "no-store" });
    if (!response.ok) return null;
    const parsed = buildFile.safeParse(await response.json());
    if (!parsed.success) return null;
    return parsed.data.version !== current ? parsed.data.version : null;
  } catch {
    return null;
  }
}

/** Checks every hour and calls `onNewBuild` once when a different build is deployed; returns a stop function. */
export function startBuildCheck(onNewBuild: (version: string) => void): () => void {
  let notified = false;
  const timer = setInterval(async () => {
    if (notified) return;
    const version = await fetchNewerBuild(APP_VERSION);
    if (version) {
      notified = true;
      onNewBuild(version);
    }
  }, BUILD_CHECK_INTERVAL_MS);
  return () => clearInterval(timer);
}
