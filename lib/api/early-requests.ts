// The main area's first two requests (the user, the first page of conversations) are started by
// the page's own first script (EARLY_REQUESTS_SCRIPT in lib/session/first-paint-script.ts), while the
// app's code is still on its way: on a slow device that is hundreds of milliseconds of download,
// parse and hydration the list no longer waits behind. The API client takes each answer over the
// first time it asks for exactly that request, so its hooks (the token, the error order, the 401
// rule) run on it as on any other (docs/CLIENT-RULES.md, "HTTP"); a request the script did not
// make, or made with another token, goes to the network as always.

import type { EarlyRequests } from '@/lib/session/first-paint-script';

declare global {
  interface Window {
    __parleyEarly?: EarlyRequests;
  }
}

/**
 * The answer the script already asked for, if `request` is exactly that request (GET, the same
 * address under `apiPrefix`, no query, the same Authorization); each is handed over once.
 */
export function takeEarlyResponse(request: Request, apiPrefix: string): Promise<Response> | null {
  const early = typeof window === 'undefined' ? undefined : window.__parleyEarly;
  if (!early || request.method !== 'GET') return null;
  if (request.headers.get('Authorization') !== early.authorization) return null;
  const base = new URL(apiPrefix.endsWith('/') ? apiPrefix : `${apiPrefix}/`);
  const url = new URL(request.url);
  if (url.origin !== base.origin || url.search !== '' || !url.pathname.startsWith(base.pathname)) return null;
  const path = url.pathname.slice(base.pathname.length);
  const response = Object.hasOwn(early.responses, path) ? early.responses[path] : undefined;
  if (!response) return null;
  delete early.responses[path];
  return response;
}
