// The tab title: "(3) Ana Núñez · Parley", the unread count that calls for the user (the total less
// what muted conversations hold: docs/DECISIONS.md, "Muted conversations and the unread total")
// and the open conversation, so it shows from other tabs too.
import { selectMutedUnread, useConversationsStore } from '@/lib/stores/conversations-store';
import { useCounterStore } from '@/lib/stores/counter-store';

const APP_TITLE = 'Parley';

export function unreadTitle(count: number, base: string = APP_TITLE): string {
  return count > 0 ? `(${count}) ${base}` : base;
}

/** The page's title with the open conversation's name in front, if one is open. */
export function conversationTitle(name: string | null): string {
  return name ? `${name} · ${APP_TITLE}` : APP_TITLE;
}

/** The unread messages that call for the user: the total, less those of muted conversations. */
function loudUnread(): number {
  return Math.max(0, useCounterStore.getState().unread - selectMutedUnread(useConversationsStore.getState()));
}

/**
 * Keeps document.title in step with the unread count; returns the function that stops it and
 * puts the base title back. Call from an effect: `useEffect(() => syncUnreadTitle(base), [base])`.
 * Opening a conversation changes the page (/main to /main/<id>), and the router then puts the
 * page's own <title> ("Parley") back into <head>: the count is put back at once.
 */
export function syncUnreadTitle(base: string = APP_TITLE): () => void {
  const apply = () => {
    const title = unreadTitle(loudUnread(), base);
    if (document.title !== title) document.title = title;
  };
  apply();
  const stops = [
    useCounterStore.subscribe((state, previous) => {
      if (state.unread !== previous.unread) apply();
    }),
    useConversationsStore.subscribe((state, previous) => {
      if (state.conversations !== previous.conversations) apply();
    }),
  ];
  const observer = typeof MutationObserver === 'undefined' ? null : new MutationObserver(apply);
  observer?.observe(document.head, { childList: true, subtree: true, characterData: true });
  return () => {
    observer?.disconnect();
    for (const stop of stops) stop();
    document.title = base;
  };
}
