// The open conversation lives in the URL: /main/<user id>. Opening one adds a history entry, so
// a reload shows it again and Back (a phone's own, or the header's) returns to the list. The
// receiver value follows the URL (showConversation, called by the main screen when it changes).
//
// The address changes through the browser's own history, which Next's router follows (usePathname
// and Back / Forward): /main and /main/<id> render the same layout, so a route change would only
// wait for the server, and until it committed the history had no entry to go Back to.
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useViewStore } from '@/lib/stores/view-store';

const MAIN_PATH = '/main';

export function conversationPath(peerId: number): string {
  return `${MAIN_PATH}/${peerId}`;
}

const CONVERSATION_PATH = new RegExp(`^${MAIN_PATH}/([^/]+)/?$`);

/** The segment after /main/ in a path, if it names one. */
export function conversationSegment(pathname: string | null): string | undefined {
  return pathname ? CONVERSATION_PATH.exec(pathname)?.[1] : undefined;
}

/** What /main/<segment> names: a user id, or 'invalid' for anything that cannot be one. */
export function parseConversationId(segment: string | undefined): number | 'invalid' | null {
  if (segment === undefined) return null;
  if (!/^[1-9]\d{0,9}$/.test(segment)) return 'invalid';
  const id = Number(segment);
  return id <= 2_147_483_647 ? id : 'invalid';
}

// Whether the entry before the current one is the list this app pushed from: then Back (the
// header's button) goes back in history rather than adding another entry for the list.
let openedFromHere = false;

/** Selecting a conversation (a list row, a search result): its URL, shown at once. */
export function openConversation(peerId: number): void {
  showConversation(peerId);
  if (typeof window === 'undefined' || window.location.pathname === conversationPath(peerId)) return;
  pushAddress(conversationPath(peerId));
}

/**
 * Opens a conversation at one of its messages (a search result): `?message=<id>` in the URL, so a
 * reload shows the same place, and the thread loads the page around it.
 */
export function openMessage(peerId: number, messageId: number): void {
  showConversation(peerId);
  void useThreadStore.getState().showMessage(peerId, messageId);
  if (typeof window === 'undefined') return;
  pushAddress(`${conversationPath(peerId)}?${MESSAGE_PARAM}=${messageId}`);
}

function pushAddress(path: string): void {
  openedFromHere = window.location.pathname === MAIN_PATH;
  window.history.pushState(null, '', path);
}

/** The message a conversation's URL asks to show (`?message=`), if any. */
export function messageFromUrl(): number | null {
  if (typeof window === 'undefined') return null;
  const value = new URLSearchParams(window.location.search).get(MESSAGE_PARAM);
  return value !== null && /^[1-9]\d{0,15}$/.test(value) ? Number(value) : null;
}

const MESSAGE_PARAM = 'message';

/** The header's back button (phone): to the list, as the browser's Back would. */
export function closeConversation(): void {
  // Back in history when the list this app pushed from is the entry before (read before
  // showConversation forgets it); otherwise (a reload, a link) the list replaces the conversation.
  const backToList = openedFromHere;
  showConversation(null);
  if (typeof window === 'undefined') return;
  if (backToList) window.history.back();
  else if (window.location.pathname !== MAIN_PATH) window.history.replaceState(null, '', MAIN_PATH);
}

/** The URL names `peerId` (null: the list): the receiver value follows, its thread loads. */
export function showConversation(peerId: number | null): void {
  if (peerId === null) openedFromHere = false;
  if (useSessionStore.getState().receiver === peerId) return;
  useViewStore.getState().setSeesLatest(false);
  useSessionStore.getState().setReceiver(peerId);
  if (peerId !== null) void useThreadStore.getState().loadThread(peerId);
}
