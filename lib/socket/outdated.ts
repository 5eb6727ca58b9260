// A server that no longer serves this client's socket protocol refuses its handshake
// (lib/contract, ProtocolRefusal): the release changed the shape of its events, and only the new
// client speaks it. The page is reloaded to get that client (the service worker fetches pages
// network first, so the reload brings the new build). Nothing typed is lost: drafts and the
// outbox are kept on the device. A page that is still refused just after reloading itself (a
// proxy serving an old copy, a release rolling out) is not reloaded again in a loop: the
// connection indicator asks the person to reload instead.
import { SOCKET_PROTOCOL, type ProtocolRefusal } from '@/lib/contract';
import { tabStorage } from '@/lib/storage/tab-storage';

const RELOADED_AT = 'parley-reloaded-for-protocol';
/** A reload for the protocol is tried again only after this long. */
export const RELOAD_AGAIN_AFTER_MS = 5 * 60_000;

/** The handshake was refused because the server does not serve this client's protocol. */
export function isProtocolRefusal(error: unknown): boolean {
  const data = (error as { data?: Partial<ProtocolRefusal> } | null)?.data;
  return Array.isArray(data?.protocols) && !data.protocols.includes(SOCKET_PROTOCOL);
}

/**
 * Reloads the page for the release's client unless this tab already did so in the last
 * RELOAD_AGAIN_AFTER_MS; answers whether it reloaded.
 */
export function reloadForNewClient(reload: () => void = () => window.location.reload(), now: number = Date.now()): boolean {
  const store = tabStorage();
  const last = Number(store?.getItem(RELOADED_AT) ?? 0);
  if (now - last < RELOAD_AGAIN_AFTER_MS) return false;
  try {
    store?.setItem(RELOADED_AT, String(now));
  } catch {
    // A storage that refuses writes cannot remember the reload: still better than a deaf tab.
  }
  reload();
  return true;
}
