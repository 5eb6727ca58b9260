import { NextResponse, type NextRequest } from 'next/server';
import { publicConfig } from '@/lib/config/public';
import { buildContentSecurityPolicy } from '@/lib/security/content-security-policy';
import { securityHeaders } from '@/lib/security/security-headers';

const HEADERS = securityHeaders({ production: process.env.NODE_ENV === 'production' });

/**
 * Every response Next serves gets the security headers, and a Content-Security-Policy with a
 * fresh nonce. Next reads the nonce from the request's CSP header and puts it on each script it
 * renders, which is why every page is rendered per request (app/layout.tsx). /api and
 * /socket.io never reach Next: the server sets the API's headers itself.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const policy = buildContentSecurityPolicy({ nonce, dev: process.env.NODE_ENV === 'development', config: publicConfig });

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set('content-security-policy', policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set('content-security-policy', policy);
  for (const [name, value] of Object.entries(HEADERS)) response.headers.set(name, value);
  return response;
}
