/**
 * Schemas of the two files the new-build check reads (build-check.ts): the latest-build file
 * `build.json` and Vite's build manifest. Loaded by the first check, not with the app's entry, so
 * the pages before sign-in do not download zod (issue 9).
 */
import { z } from "zod";

/** `build.json`: `{version, builtAt?, manifest?}`. */
export const latestBuildFile = z.object({ version: z.string().min(1), builtAt: z.string().optional(), manifest: z.string().optional() });
/** The build manifest: entry → `{file, …}`. */
export const manifestFile = z.record(z.string(), z.object({ file: z.string() }).loose());
