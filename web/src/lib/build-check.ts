/**
 * Hourly new-build check (spec §7 "The app also fetches a build manifest and a latest-build file,
 * checking hourly for a new version"; §9). The build (web/vite.config.ts) writes two files beside
 * index.html:
 * - `build.json`, the latest-build file: `{ version, builtAt, manifest }`, served without caching;
 * - `build-manifest.json`, Vite's manifest of that build (entry file → chunk), named by `manifest`.
 * The same version is embedded in the bundle as `__APP_VERSION__`.
 *
 * A newer build is announced only once its manifest answers with the `index.html` entry, so a
 * half-deployed build is never offered. The app then offers "A new version is available — reload"
 * and never reloads by itself while the user is typing in a form. The only automatic reload is the
 * one after a route's code chunk fails to load (the old build's chunks are gone after a deploy),
 * and only when no field has the focus; otherwise the prompt is shown instead.
 */

/** The version this bundle was built as. */
export const APP_VERSION: string = __APP_VERSION__;
/** One hour, in ms. */
export const BUILD_CHECK_INTERVAL_MS = 60 * 60 * 1000;
/** Path of the latest-build file. */
export const LATEST_BUILD_PATH = "/build.json";
/** Path of the build manifest (Vite's manifest.json renamed; written by web/vite.config.ts). */
export const BUILD_MANIFEST_PATH = "/build-manifest.json";

/** The two files' schemas (build-files.ts), loaded at the first check: zod is not in the app's entry (issue 9). */
const fileSchemas = () => import("./build-files");

/** `fetch` as the check uses it (injectable for tests). */
export type Fetcher = (input: string, init: RequestInit) => Promise<Response>;

const defaultFetcher: Fetcher = (input, init) => globalThis.fetch(input, init);

/**
 * The deployed version when it differs from `current` and its build manifest lists the app's entry
 * (`index.html`), else null. Network or parse failures count as "no news" (this is not an API call
 * and never ends the session).
 */
export async function fetchNewerBuild(current: string, fetcher: Fetcher = defaultFetcher): Promise<string | null> {
  try {
    const { latestBuildFile, manifestFile } = await fileSchemas();
    const response = await fetcher(LATEST_BUILD_PATH, { cache: "no-store" });
    if (!response.ok) return null;
    const latest = latestBuildFile.safeParse(await response.json());
    if (!latest.success || latest.data.version === current) return null;
    const manifestPath = latest.data.manifest?.startsWith("/") ? latest.data.manifest : BUILD_MANIFEST_PATH;
    const manifestResponse = await fetcher(manifestPath, { cache: "no-store" });
    if (!manifestResponse.ok) return null;
    const manifest = manifestFile.safeParse(await manifestResponse.json());
    if (!manifest.success || !manifest.data["index.html"]) return null;
    return latest.data.version;
  } catch {
    return null;
  }
}

/** The parts of `document` the typing check reads. */
export type FocusSource = { activeElement: unknown } | undefined;

const NON_TEXT_INPUTS = new Set(["button", "checkbox", "color", "file", "image", "radio", "range", "reset", "submit"]);

/**
 * True while the user is typing: the focused element is a text field, a text area, a select or
 * an editable region (so a reload would lose what they are writing).
 */
export function isTyping(doc: FocusSource = typeof document === "undefined" ? undefined : document): boolean {
  const active = doc?.activeElement as { tagName?: string; type?: string; isContentEditable?: boolean } | null | undefined;
  if (!active || typeof active.tagName !== "string") return false;
  if (active.isContentEditable) return true;
  const tag = active.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return !NON_TEXT_INPUTS.has((active.type ?? "text").toLowerCase());
  return false;
}

/** What the watcher has decided: nothing new, or a newer build to offer. */
export type BuildState = { status: "current" } | { status: "prompt"; version: string };

/** Dependencies of a watcher (all injectable so the logic is tested without a browser). */
export type BuildWatcherOptions = {
  current?: string;
  fetcher?: Fetcher;
  /** Called once when a newer build is known: show the "new version — reload" prompt. */
  onPrompt: (version: string | null) => void;
  /** Reloads the page (window.location.reload in the app). */
  reload?: () => void;
  typing?: () => boolean;
};

/**
 * The check's state machine. `check()` asks the server (hourly in the app); a newer build moves
 * to the prompt state and calls `onPrompt` once. `chunkFailed()` handles a route chunk that did
 * not load: it reloads when the user is not typing, else it prompts; it answers whether it reloaded.
 */
export class BuildWatcher {
  state: BuildState = { status: "current" };
  private readonly current: string;
  private readonly fetcher: Fetcher;
  private readonly onPrompt: (version: string | null) => void;
  private readonly reload: () => void;
  private readonly typing: () => boolean;
  private prompted = false;

  constructor(options: BuildWatcherOptions) {
    this.current = options.current ?? APP_VERSION;
    this.fetcher = options.fetcher ?? defaultFetcher;
    this.onPrompt = options.onPrompt;
    this.reload = options.reload ?? (() => window.location.reload());
    this.typing = options.typing ?? (() => isTyping());
  }

  /** One check against the latest-build file; answers the resulting state. */
  async check(): Promise<BuildState> {
    if (this.state.status === "prompt") return this.state;
    const version = await fetchNewerBuild(this.current, this.fetcher);
    if (version) {
      this.state = { status: "prompt", version };
      this.prompt(version);
    }
    return this.state;
  }

  /** A route's code failed to load: reload now unless the user is typing (then prompt). */
  chunkFailed(): boolean {
    if (!this.typing()) {
      this.reload();
      return true;
    }
    this.prompt(this.state.status === "prompt" ? this.state.version : null);
    return false;
  }

  private prompt(version: string | null): void {
    if (this.prompted) return;
    this.prompted = true;
    this.onPrompt(version);
  }
}

let active: BuildWatcher | null = null;
const RELOADED_KEY = "conversa:chunk-reload";

/**
 * Starts the hourly check: `onNewBuild` is called once when a newer build is deployed (or when a
 * route chunk is missing while the user types). Answers a stop function.
 */
export function startBuildCheck(onNewBuild: (version: string | null) => void): () => void {
  const watcher = new BuildWatcher({ onPrompt: onNewBuild });
  active = watcher;
  const timer = setInterval(() => void watcher.check(), BUILD_CHECK_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    if (active === watcher) active = null;
  };
}

/**
 * Wraps a route's lazy import: when the chunk fails to load (a deploy replaced it), the page is
 * reloaded once — never while the user is typing — and the error is rethrown for the error screen.
 * A second failure right after such a reload is not retried (no reload loop).
 */
export function reloadOnChunkError<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      const loaded = await load();
      globalThis.sessionStorage?.removeItem(RELOADED_KEY);
      return loaded;
    } catch (error) {
      const storage = globalThis.sessionStorage;
      if (storage && storage.getItem(RELOADED_KEY) !== "1") {
        const watcher = active ?? new BuildWatcher({ onPrompt: () => undefined });
        if (watcher.chunkFailed()) storage.setItem(RELOADED_KEY, "1");
      }
      throw error;
    }
  };
}
