import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers';

describe('securityHeaders', () => {
  it('sends the same protections in every mode', () => {
    for (const production of [false, true]) {
      expect(securityHeaders({ production })).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-frame-options': 'DENY',
        'cross-origin-opener-policy': 'same-origin-allow-popups',
        'permissions-policy': expect.stringMatching(/^camera=\(\), microphone=\(\), geolocation=\(\)/),
      });
    }
  });

  it('asks for HTTPS only in production', () => {
    expect(securityHeaders({ production: true })['strict-transport-security']).toBe('max-age=63072000; includeSubDomains');
    expect(securityHeaders({ production: false })).not.toHaveProperty('strict-transport-security');
  });
});
