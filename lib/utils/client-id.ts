// Client-generated message ids (the server dedups a resend by sender and client id).

/** A random RFC 9562 version-4 UUID. */
export function newClientId(): string {
  // randomUUID exists only in secure contexts (https, localhost); a plain-http deployment still
  // has getRandomValues, so build the same v4 UUID from it.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // RFC variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
