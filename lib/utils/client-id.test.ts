import { describe, expect, it } from 'vitest';
import { sendPayloadSchema } from '@/lib/contract/schemas';
import { newClientId } from './client-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newClientId', () => {
  it('is a fresh v4 UUID each time', () => {
    const a = newClientId();
    expect(a).toMatch(UUID_V4);
    expect(newClientId()).not.toBe(a);
  });

  it('falls back to getRandomValues where randomUUID is missing (plain http), still a UUID the server accepts', () => {
    const own = Object.getOwnPropertyDescriptor(crypto, 'randomUUID');
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = new Set(Array.from({ length: 50 }, () => newClientId()));
      expect(ids.size).toBe(50);
      for (const id of ids) {
        expect(id).toMatch(UUID_V4);
        expect(sendPayloadSchema.safeParse({ client_id: id, recipient_id: 2, text: 'hi' }).success).toBe(true);
      }
    } finally {
      if (own) Object.defineProperty(crypto, 'randomUUID', own);
      else delete (crypto as { randomUUID?: unknown }).randomUUID;
    }
    expect(typeof crypto.randomUUID).toBe('function');
  });
});
