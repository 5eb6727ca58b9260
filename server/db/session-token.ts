import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes: unguessable, and short enough for a header. */
export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(rawToken: string): string {
  return createHash('sha256').update(rawToken).digest('hex');
}
