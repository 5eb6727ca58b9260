// The pages' Content-Security-Policy, built for every request by proxy.ts (not browser code).
// A pure function of its inputs, so each variant (dev, emulator, split origins) is unit-tested.
// The session token lives in localStorage (docs/CLIENT-RULES.md): any script that runs in our pages can read
// it, so scripts run only when they carry this request's nonce or are loaded by one that does.
import type { PublicConfig } from '@/lib/config/public';

export interface CspOptions {
  /** Fresh for every request (proxy.ts); Next puts it on each of its scripts. */
  nonce: string;
  /** `next dev`: React's dev tooling needs eval. */
  dev: boolean;
  config: Pick<PublicConfig, 'apiUrl' | 'socketUrl' | 'authEmulatorHost'> & {
    firebase: Pick<PublicConfig['firebase'], 'authDomain'>;
  };
}

// What the Firebase web SDK calls for sign-in: Auth REST, token exchange, and the older v3 API.
const FIREBASE_API_ORIGINS = [
  'https://identitytoolkit.googleapis.com',
  'https://securetoken.googleapis.com',
  'https://www.googleapis.com',
];
// signInWithPopup loads gapi (api.js) from here for the auth domain's helper iframe.
const GAPI_ORIGIN = 'https://apis.google.com';

const NONCE = /^[A-Za-z0-9+/_-]{16,}={0,2}$/;
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The origin an absolute http(s) or ws(s) URL is reached on, and with `webSocket` its WebSocket
 * twin too (Socket.IO polls over HTTP, then upgrades; an https: source does not match wss:).
 * A relative URL is the page's own origin: nothing to add to 'self'.
 */
function connectOrigins(url: string | undefined, { webSocket }: { webSocket: boolean }): string[] {
  if (!url || !/^(?:https?|wss?):\/\//i.test(url)) return [];
  const { protocol, host } = new URL(url);
  const secure = protocol === 'https:' || protocol === 'wss:';
  const http = `${secure ? 'https' : 'http'}://${host}`;
  return webSocket ? [http, `${secure ? 'wss' : 'ws'}://${host}`] : [http];
}

/** A configured host becomes part of the header: refuse anything that could add a directive. */
function checkedHost(name: string, host: string): string {
  if (!HOST.test(host)) throw new Error(`${name} must be a host name (with an optional port), got "${host}".`);
  return host;
}

const unique = (values: string[]) => [...new Set(values)];
const plainHttp = (origins: string[]) => origins.filter((origin) => origin.startsWith('http:'));

export function buildContentSecurityPolicy({ nonce, dev, config }: CspOptions): string {
  if (!NONCE.test(nonce)) throw new Error('The CSP nonce must be base64 of at least 12 random bytes.');
  const authDomain = config.firebase.authDomain && checkedHost('NEXT_PUBLIC_FIREBASE_AUTH_DOMAIN', config.firebase.authDomain);
  const emulator = config.authEmulatorHost && `http://${checkedHost('NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST', config.authEmulatorHost)}`;

  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    // 'strict-dynamic': a script with the nonce may load more (Next's chunks, Firebase's gapi
    // loader), and in browsers that know it, 'self' and host sources are ignored. They stay as
    // the fallback for older ones. No 'unsafe-inline': inline handlers and injected inline
    // scripts never run. React needs eval only in development.
    'script-src': ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'", GAPI_ORIGIN, ...(dev ? ["'unsafe-eval'"] : [])],
    // 'unsafe-inline' for styles only: React writes style attributes (the virtualised list, image
    // boxes) and Next injects <style> tags in development. A nonce here would switch it off.
    // Styles cannot run code or reach the token.
    'style-src': ["'self'", "'unsafe-inline'"],
    // Avatars are URLs on any host (Google's and GitHub's CDNs, or whatever the user chose), so
    // any https: image; images cannot run code. data:/blob: for local previews. Attachments come
    // from the API's origin (lib/api/attachment-url.ts), which https: covers only when it is
    // https: a plain-http split setup (a local check) names it.
    'img-src': ["'self'", 'data:', 'blob:', 'https:', ...plainHttp(connectOrigins(config.apiUrl, { webSocket: false }))],
    'font-src': ["'self'"],
    // 'self' includes the page's own ws: origin (CSP3), so same-origin Socket.IO and Next's dev
    // HMR websocket need nothing more.
    'connect-src': unique([
      "'self'",
      ...connectOrigins(config.apiUrl, { webSocket: false }),
      ...connectOrigins(config.socketUrl, { webSocket: true }),
      ...FIREBASE_API_ORIGINS,
      ...(emulator ? [emulator] : []),
    ]),
    // signInWithPopup talks to the popup through a hidden iframe from the auth domain
    // (the emulator serves its own in emulator builds).
    'frame-src': [...(authDomain ? [`https://${authDomain}`] : []), ...(emulator ? [emulator] : [])],
    // The service worker (/sw.js) and the web app manifest are our own files, from this origin only.
    'worker-src': ["'self'"],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
  if (directives['frame-src']!.length === 0) directives['frame-src'] = ["'none'"];

  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The nonce of a policy built here (the root layout reads it back from the request's header). */
export function nonceOf(policy: string | null | undefined): string | undefined {
  return policy ? /'nonce-([^']+)'/.exec(policy)?.[1] : undefined;
}
