// Web Push settings: the VAPID key pair that signs our pushes, and which push services a
// subscription may point at. Read from the environment by server/config.ts; the keys of a
// development machine are generated once into DATA_DIR (vapid-keys.ts).

/** The server's VAPID identity: the browser subscribed with the public key, pushes are signed with the private one. */
export interface VapidKeys {
  /** base64url of the uncompressed P-256 point (65 bytes). */
  publicKey: string;
  /** base64url of the private scalar (32 bytes). */
  privateKey: string;
  /** Who push services contact about our traffic: mailto: or https: URL. */
  subject: string;
}

export interface PushSettings {
  /** Set keys; 'generate' (development and test without keys): kept in DATA_DIR; null: Web Push off. */
  vapid: VapidKeys | 'generate' | null;
  /** Allowed push-service endpoint origins ('https://*.push.apple.com' matches any subdomain). */
  endpointOrigins: readonly string[];
}

/**
 * The push services browsers use today: Chrome and other Chromium browsers (FCM), Firefox
 * (Mozilla's autopush), Edge (WNS), Safari (Apple). The server POSTs to whatever endpoint a
 * client registers, so an open list would let anyone make it send requests into our network.
 */
export const DEFAULT_PUSH_ENDPOINT_ORIGINS = [
  'https://fcm.googleapis.com',
  'https://android.googleapis.com',
  'https://updates.push.services.mozilla.com',
  'https://*.notify.windows.com',
  'https://web.push.apple.com',
  'https://*.push.apple.com',
] as const;

export const DEVELOPMENT_VAPID_SUBJECT = 'mailto:parley@localhost';

const ORIGIN_PATTERN = /^(https?):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)$/;

/** Checks one configured origin; returns the problem, or null when it is usable. */
export function endpointOriginProblem(origin: string): string | null {
  return ORIGIN_PATTERN.test(origin) ? null : `"${origin}" is not an origin like https://push.example.com or https://*.example.com (no port, no path)`;
}

/**
 * Whether the server may send to `endpoint`: its scheme and host match one of the origins (any
 * port: a push service names its own). Credentials in the URL are refused outright.
 */
export function isAllowedEndpoint(endpoint: string, origins: readonly string[]): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return origins.some((origin) => {
    const [, scheme, wildcard, base] = ORIGIN_PATTERN.exec(origin) ?? [];
    if (!scheme || !base || url.protocol !== `${scheme}:`) return false;
    return wildcard ? host.endsWith(`.${base}`) : host === base;
  });
}

const base64url = /^[A-Za-z0-9_-]+$/;

/** The decoded length of a base64url key, or -1 when it is not base64url. */
function base64urlBytes(value: string): number {
  return base64url.test(value) ? Buffer.from(value, 'base64url').length : -1;
}

/** Checks a configured key pair; returns the problems found. */
export function vapidKeyProblems(keys: Pick<VapidKeys, 'publicKey' | 'privateKey' | 'subject'>): string[] {
  const problems: string[] = [];
  const publicKey = base64url.test(keys.publicKey) ? Buffer.from(keys.publicKey, 'base64url') : null;
  if (!publicKey || publicKey.length !== 65 || publicKey[0] !== 4) {
    problems.push('VAPID_PUBLIC_KEY: must be base64url of an uncompressed P-256 public key (65 bytes; npx web-push generate-vapid-keys)');
  }
  if (base64urlBytes(keys.privateKey) !== 32) problems.push('VAPID_PRIVATE_KEY: must be base64url of a 32-byte P-256 private key');
  if (!/^(mailto:.+@.+|https:\/\/.+)$/.test(keys.subject)) problems.push('VAPID_SUBJECT: must be a mailto: address or an https:// URL');
  return problems;
}
