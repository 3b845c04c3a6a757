/**
 * The frame of the app's pages, in its own chunk (the auth pages do not load it, issue 9):
 * react-query's provider, the toast outlet they all may use, and tailwind-merge as `cn`'s
 * conflict resolver (registered when this module loads, before any app page renders).
 */
import { useEffect, type ReactNode } from "react";
import { QueryClientProvider } from "@tanstack/react-query";
import { twMerge } from "tailwind-merge";
import { queryClient } from "@/lib/query-client";
import { wantToaster } from "@/lib/toaster-state";
import { setClassMerge } from "@/lib/utils";

setClassMerge(twMerge);

/** Provides the app's single QueryClient to `children` and asks for the toast outlet. */
export function AppQueryProvider({ children }: { children: ReactNode }) {
  useEffect(wantToaster, []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
