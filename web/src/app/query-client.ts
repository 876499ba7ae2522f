import { QueryClient } from '@tanstack/react-query';

/** Errors are reported by the API client, so queries neither retry nor toast again. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
    mutations: { retry: false },
  },
});
