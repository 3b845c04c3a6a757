import { clsx, type ClassValue } from "clsx";

/** The Tailwind conflict resolver `cn` applies; none until the app's pages register tailwind-merge. */
let mergeClasses: (classes: string) => string = (classes) => classes;

/**
 * Registers tailwind-merge's `twMerge` as `cn`'s resolver. The app's pages do it when their frame
 * loads (web/src/app/query-provider.tsx), before any of them renders; the auth pages, whose classes
 * never conflict (auth-classes.test.ts renders them both ways), do without it, so /login does not
 * download tailwind-merge (8 KiB gzip; issue 9).
 */
export function setClassMerge(merge: (classes: string) => string): void {
  mergeClasses = merge;
}

/**
 * Loads tailwind-merge and registers it (for a lazily loaded part of an auth page, e.g. the language
 * menu, whose classes may conflict). Resolves once registered.
 */
export async function loadClassMerge(): Promise<void> {
  const { twMerge } = await import("tailwind-merge");
  setClassMerge(twMerge);
}

/** Joins class names and lets later Tailwind utilities win over earlier ones (shadcn's `cn`). */
export function cn(...inputs: ClassValue[]): string {
  return mergeClasses(clsx(inputs));
}
