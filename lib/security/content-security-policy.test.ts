import { describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy, nonceOf, type CspOptions } from './content-security-policy';

const NONCE = 'q83vEjRWeJCrze8SNFZ4kA==';
const production: CspOptions['config'] = {
  apiUrl: '/api',
  socketUrl: undefined,
  authEmulatorHost: undefined,
  firebase: { authDomain: 'parley.firebaseapp.com' },
};

/** One directive's sources; a missing directive fails the case instead of reading as none. */
function sources(policy: string, name: string): string[] {
  const directive = policy.split('; ').find((part) => part.split(' ')[0] === name);
  if (!directive) throw new Error(`no ${name} in: ${policy}`);
  return directive.split(' ').slice(1);
}

type Overrides = Omit<Partial<CspOptions>, 'config'> & { config?: Partial<CspOptions['config']> };

const build = (options: Overrides = {}) =>
  buildContentSecurityPolicy({
    nonce: options.nonce ?? NONCE,
    dev: options.dev ?? false,
    config: { ...production, ...options.config },
  });

describe('buildContentSecurityPolicy', () => {
  it('production, same origin: the whole policy', () => {
    expect(build()).toBe(
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${NONCE}' 'strict-dynamic' https://apis.google.com`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob: https:",
        "font-src 'self'",
        "connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com https://www.googleapis.com",
        'frame-src https://parley.firebaseapp.com',
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ].join('; '),
    );
  });

  it('never lets inline scripts or eval run in production', () => {
    const scripts = sources(build(), 'script-src');
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).not.toContain("'unsafe-eval'");
  });

  it('allows eval in development only, for React', () => {
    const scripts = sources(build({ dev: true }), 'script-src');
    expect(scripts).toContain("'unsafe-eval'");
    expect(scripts).not.toContain("'unsafe-inline'");
    expect(scripts).toContain(`'nonce-${NONCE}'`);
  });

  it('carries the nonce it is given', () => {
    expect(sources(build({ nonce: 'AAAAAAAAAAAAAAAAAAAAAA==' }), 'script-src')).toContain("'nonce-AAAAAAAAAAAAAAAAAAAAAA=='");
  });

  it('refuses a nonce that is too short or could break out of the header', () => {
    expect(() => build({ nonce: 'abc' })).toThrow(/nonce/);
    expect(() => build({ nonce: `${NONCE}'; script-src *` })).toThrow(/nonce/);
  });

  it('emulator builds may reach and frame the emulator, and only they', () => {
    const withEmulator = build({ config: { authEmulatorHost: '127.0.0.1:9199' } });
    expect(sources(withEmulator, 'connect-src')).toContain('http://127.0.0.1:9199');
    expect(sources(withEmulator, 'frame-src')).toEqual(['https://parley.firebaseapp.com', 'http://127.0.0.1:9199']);

    const without = build();
    expect(without).not.toContain('127.0.0.1');
    expect(without).not.toContain('http://');
  });

  it('a socket on another origin is allowed over HTTP and WebSocket', () => {
    const connect = sources(build({ config: { socketUrl: 'https://rt.example.com:8443/' } }), 'connect-src');
    expect(connect).toEqual(expect.arrayContaining(["'self'", 'https://rt.example.com:8443', 'wss://rt.example.com:8443']));
  });

  it('a plain-http socket origin (a local split setup) gets ws:, not wss:', () => {
    const connect = sources(build({ dev: true, config: { socketUrl: 'http://localhost:4000' } }), 'connect-src');
    expect(connect).toEqual(expect.arrayContaining(['http://localhost:4000', 'ws://localhost:4000']));
    expect(connect.join(' ')).not.toContain('wss:');
  });

  it('an API on another origin is allowed by origin, without its path', () => {
    const connect = sources(build({ config: { apiUrl: 'https://api.example.com/api' } }), 'connect-src');
    expect(connect).toContain('https://api.example.com');
    expect(connect.filter((source) => source.endsWith('/api'))).toEqual([]);
    expect(connect.join(' ')).not.toContain('wss://api.example.com');
  });

  it('shows attachments from the API origin: https: covers an https one, a plain-http one is named', () => {
    expect(sources(build({ config: { apiUrl: 'https://api.example.com/api' } }), 'img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:']);
    expect(sources(build({ config: { apiUrl: 'http://127.0.0.1:3311/api' } }), 'img-src')).toEqual([
      "'self'",
      'data:',
      'blob:',
      'https:',
      'http://127.0.0.1:3311',
    ]);
  });

  it('adds each origin once when the API and the socket share one', () => {
    const policy = build({ config: { apiUrl: 'https://api.example.com/api', socketUrl: 'https://api.example.com' } });
    const connect = sources(policy, 'connect-src');
    expect(connect.filter((source) => source === 'https://api.example.com')).toHaveLength(1);
  });

  it('a relative API URL or no socket URL adds nothing to self', () => {
    const connect = sources(build({ config: { apiUrl: '/api', socketUrl: undefined } }), 'connect-src');
    expect(connect.filter((source) => !source.includes('googleapis.com'))).toEqual(["'self'"]);
  });

  it('frames nothing without an auth domain or emulator', () => {
    expect(sources(build({ config: { firebase: { authDomain: undefined } } }), 'frame-src')).toEqual(["'none'"]);
  });

  it('refuses configured hosts that would add sources or directives', () => {
    expect(() => build({ config: { firebase: { authDomain: 'x.com; script-src *' } } })).toThrow(/AUTH_DOMAIN/);
    expect(() => build({ config: { authEmulatorHost: '127.0.0.1:9099 *' } })).toThrow(/EMULATOR_HOST/);
  });

  it('locks down objects, base, forms and framing in every mode', () => {
    for (const policy of [build(), build({ dev: true, config: { authEmulatorHost: '127.0.0.1:9099' } })]) {
      expect(sources(policy, 'object-src')).toEqual(["'none'"]);
      expect(sources(policy, 'base-uri')).toEqual(["'self'"]);
      expect(sources(policy, 'form-action')).toEqual(["'self'"]);
      expect(sources(policy, 'frame-ancestors')).toEqual(["'none'"]);
      expect(sources(policy, 'default-src')).toEqual(["'self'"]);
    }
  });
});

describe('nonceOf', () => {
  it('reads back the nonce of a built policy', () => {
    expect(nonceOf(buildContentSecurityPolicy({ nonce: NONCE, dev: false, config: production }))).toBe(NONCE);
    expect(nonceOf(null)).toBeUndefined();
    expect(nonceOf("default-src 'self'")).toBeUndefined();
  });
});
