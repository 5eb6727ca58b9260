import { TOKEN_PREFIX } from '../../lib/contract';

// Far longer than any token we issue; stops absurd values before they reach hashing or SQL.
const MAX_TOKEN_LENGTH = 512;
const TOKEN_SHAPE = /^[\x21-\x7e]+$/;

/**
 * The session token from an Authorization header or a socket handshake's auth.token.
 * The client stores "Bearer <token>" and sends it as is (docs/CLIENT-RULES.md); the bare token is
 * accepted too. Returns null for anything else, so callers answer 401 without guessing.
 */
export function parseBearerToken(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const parts = value.trim().split(/\s+/);
  let token: string | undefined;
  if (parts.length === 1) token = parts[0];
  else if (parts.length === 2 && parts[0]?.toLowerCase() === TOKEN_PREFIX.toLowerCase()) token = parts[1];
  if (!token || token.length > MAX_TOKEN_LENGTH || !TOKEN_SHAPE.test(token)) return null;
  // A lone "Bearer" is a prefix with its token missing, not a token.
  if (token.toLowerCase() === TOKEN_PREFIX.toLowerCase()) return null;
  return token;
}
