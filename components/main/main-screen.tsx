'use client';

import { useEffect, useLayoutEffect, useState } from 'react';
import dynamic from 'next/dynamic';
import { usePathname } from 'next/navigation';
import { conversationSegment, parseConversationId, showConversation } from '@/lib/routing/conversation-route';
import { prefetchWhenListReady, whenIdle } from '@/lib/realtime/prefetch';
import { conversationTitle, syncUnreadTitle } from '@/lib/realtime/unread-title';
import { afterNextPaint, firstScreenShown } from '@/lib/session/first-screen';
import { preloadOtherLanguages } from '@/lib/lifecycle/user-language';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { currentLanguage, useT } from '@/lib/i18n';
import { preloadSearchPanels, Sidebar } from '@/components/chat/sidebar';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState } from '@/components/ui/empty-state';
import { ChatIcon } from '@/components/ui/icons';
import { ConversationNotFound } from '@/components/chat/conversation-not-found';
import { usePeerTitleName } from '@/components/people/use-peer';
import { UndoBar } from '@/components/chat/undo-bar';
import { NotificationPrompt } from '@/components/notifications/notification-prompt';
import { AppHeader } from './app-header';
import styles from './main-screen.module.css';

// The open thread (its virtualised list, the composer, uploads) is not needed to show the list:
// it is fetched once the list is on screen and the page idle (lib/realtime/prefetch.ts), or
// sooner when a conversation is about to be opened (pointer over or focus in the list column),
// which keeps /main's first load small.
type ThreadViewModule = typeof import('@/components/chat/thread-view');
// Once loaded, the component itself: rendering it through the lazy wrapper would still suspend
// for a moment the first time, a frame or more before the conversation shows.
let loadedThreadView: ThreadViewModule['ThreadView'] | null = null;
const loadThreadView = () =>
  import('@/components/chat/thread-view').then((module: ThreadViewModule) => {
    loadedThreadView = module.ThreadView;
    return module;
  });
const preloadThreadView = () => void loadThreadView().catch(() => {});
// The reaction picker (its code and data: ~430 KB into IndexedDB the first time), so "More
// reactions…" opens at once: at the first idle moment once a conversation is open, never with
// /main's first load (a dynamic import) nor for someone who only looks at the list.
// Once per page: a failed attempt is tried again with the next conversation opened.
let emojiPickerPreload: Promise<void> | null = null;
const preloadEmojiPicker = () => {
  emojiPickerPreload ??= import('@/components/chat/emoji-picker')
    .then((module) => module.preloadEmojiPicker(currentLanguage()))
    .catch(() => {
      emojiPickerPreload = null;
    });
};

function ThreadLoading() {
  const t = useT();
  return (
    <div className={styles.nothingOpen}>
      <Spinner label={t('common.loading')} />
    </div>
  );
}

// Only someone with no name needs it: everyone else's first load goes without it.
const NamePrompt = dynamic(() => import('./name-prompt').then((module) => module.NamePrompt));

const LazyThreadView = dynamic(() => loadThreadView().then((module) => module.ThreadView), { loading: ThreadLoading });

/**
 * The open conversation: the thread view itself once its code is in, else the lazy one. Chosen once
 * for as long as it is open, since a change of component would remount it (an upload, the scroll).
 */
function OpenThread({ peerId }: { peerId: number }) {
  const [ThreadView] = useState(() => loadedThreadView ?? LazyThreadView);
  useEffect(() => whenIdle(preloadEmojiPicker), []);
  return <ThreadView peerId={peerId} />;
}

/**
 * The signed-in area: conversations (or search results) on the left, the open thread on the
 * right. The open conversation is the URL's (/main/<user id>); on a phone the list and the
 * thread are separate views, and Back returns from the thread to the list.
 */
export function MainScreen() {
  const t = useT();
  const segment = conversationSegment(usePathname());
  const me = useSessionStore((state) => state.user?.id ?? null);
  const receiver = useSessionStore((state) => state.receiver);
  const nameless = useSessionStore((state) => state.user !== null && !state.user.username);
  const parsed = parseConversationId(segment);
  // Oneself is no conversation either (the server refuses it).
  const named = parsed === me ? 'invalid' : parsed;
  const peerId = typeof named === 'number' ? named : null;
  // The conversation just opened shows at once, in the same render as its selection (the router
  // reports the new address in a render of its own); the receiver follows the address (Back,
  // Forward, a reload).
  const route = receiver !== null && receiver !== me ? receiver : named;

  // The tab says which conversation is open, after the unread count: "(3) Ana Núñez · Parley".
  const titleName = usePeerTitleName(typeof route === 'number' ? route : null);
  useEffect(() => syncUnreadTitle(conversationTitle(titleName)), [titleName]);
  useEffect(() => prefetchWhenListReady(preloadThreadView, preloadSearchPanels), []);
  // The first screen is the list as it first settles (read or failed): once that frame is painted,
  // what waited for it (the connection) starts.
  const listSettled = useConversationsStore((state) => state.status === 'ready' || state.status === 'error');
  useEffect(() => (listSettled ? afterNextPaint(firstScreenShown) : undefined), [listSettled]);
  // Once the area is up: the other languages' texts, so switching is instant, offline too.
  useEffect(() => {
    const timer = setTimeout(preloadOtherLanguages, 3_000);
    return () => clearTimeout(timer);
  }, []);
  // Before paint: after Back or Forward, the receiver follows the address before anything shows.
  useLayoutEffect(() => showConversation(peerId), [peerId]);

  let thread;
  if (route === null) {
    thread = (
      <div className={styles.nothingOpen}>
        <EmptyState icon={<ChatIcon />} title={t('thread.noneSelected')} />
      </div>
    );
  } else if (route === 'invalid') {
    thread = <ConversationNotFound />;
  } else {
    thread = <OpenThread key={route} peerId={route} />;
  }

  return (
    <div className={styles.shell}>
      <AppHeader />
      <NotificationPrompt />
      {nameless ? <NamePrompt /> : null}
      <main className={styles.main} data-view={route === null ? 'list' : 'thread'}>
        <div className={styles.listColumn} onPointerOver={preloadThreadView} onFocus={preloadThreadView}>
          <Sidebar />
        </div>
        <div className={styles.threadColumn}>{thread}</div>
      </main>
      <UndoBar />
    </div>
  );
}
