import type { IncomingMessage, ServerResponse } from 'node:http';
import { securityHeaders } from '../../lib/security/security-headers';

// The API answers JSON (and uploaded files), never a page: nothing in it may load or frame anything.
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Wraps Fastify's request handler so that every /api response carries the shared security
 * headers and the API's CSP, including the ones Fastify answers without running hooks (a
 * malformed URL). They are set on the raw response before Fastify sees the request, so a header
 * a route sets itself wins (Node gives writeHead's headers precedence): the uploads route
 * serves files with its own sandboxing CSP.
 */
export function withSecurityHeaders(handler: Handler, { production }: { production: boolean }): Handler {
  const headers = Object.entries({
    ...securityHeaders({ production }),
    'content-security-policy': API_CONTENT_SECURITY_POLICY,
  });
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    handler(req, res);
  };
}
