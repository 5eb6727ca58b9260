// Headers every response carries, pages (proxy.ts) and API (server/http/security-headers.ts)
// alike; the policy lives in one place. Not browser code. The pages' CSP is built separately
// (content-security-policy.ts) since it changes with every request.

export function securityHeaders({ production }: { production: boolean }): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    // The browsers' default, made explicit: other sites see our origin, never a path. Not
    // no-referrer: a Firebase API key restricted to our site checks the Referer.
    'referrer-policy': 'strict-origin-when-cross-origin',
    // For browsers that ignore CSP frame-ancestors.
    'x-frame-options': 'DENY',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
    // A page of ours and its opener never share a browsing context group; -allow-popups keeps
    // the Firebase sign-in popup able to report back to the page that opened it.
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    // Production only: in development the site is plain http on localhost. (Browsers ignore it
    // over http anyway, so the end-to-end suite's production build on http is unaffected.)
    ...(production ? { 'strict-transport-security': 'max-age=63072000; includeSubDomains' } : {}),
  };
}

