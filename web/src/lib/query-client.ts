/**
 * The app's single react-query client. Reads are fresh for 30 s; an ApiError of a 4xx is not
 * retried (the request client already retried a 403 once, spec §8).
 */
import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "./api";
import { setSessionCacheClear } from "./session";

/** The QueryClient shared by providers, guards and session code. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (failureCount, error) => {
        if (isApiError(error) && (error.status === 0 || (error.status >= 400 && error.status < 500))) return false;
        return failureCount < 2;
      },
    },
    mutations: { retry: false },
  },
});

// Login, logout and a lost session drop the cache (session.ts).
setSessionCacheClear(() => queryClient.clear());
