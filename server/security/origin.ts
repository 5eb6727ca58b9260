import type { IncomingMessage } from 'node:http';
import { refusedCaller, type RefusalLog } from '../logging/refusal-log';

// Long enough for any real origin; keeps a hostile header from bloating the log line.
const MAX_LOGGED_ORIGIN = 200;

/**
 * Whether a browser page at `origin` may open a socket. No Origin header: not a browser (browsers
 * always send it on WebSocket handshakes and cross-origin requests), allowed. With an allow-list
 * (ALLOWED_ORIGINS), only its origins. Without one, only the origin the request was addressed to:
 * the Origin's host:port must equal the Host header (the scheme is not compared, since TLS is
 * often terminated in front of us). An opaque origin ("null": sandboxed frames, file:) never passes.
 */
export function isAllowedOrigin(
  origin: string | undefined,
  host: string | undefined,
  allowedOrigins: readonly string[] | null,
): boolean {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (allowedOrigins) return allowedOrigins.includes(url.origin);
  return host !== undefined && url.host === host.toLowerCase();
}

/** Engine.IO's allowRequest: runs on every handshake (polling or WebSocket) before a session exists. */
export function originAllowRequest(allowedOrigins: readonly string[] | null, refusals: RefusalLog) {
  return (req: IncomingMessage, callback: (error: string | null | undefined, success: boolean) => void): void => {
    const { origin, host } = req.headers;
    if (isAllowedOrigin(origin, host, allowedOrigins)) return callback(null, true);
    refusals.count(refusedCaller(undefined, req.socket.remoteAddress), 'socket handshake refused: origin not allowed', origin?.slice(0, MAX_LOGGED_ORIGIN));
    callback('Origin not allowed', false);
  };
}
