'use client';

import { useEffect } from 'react';
import dynamic from 'next/dynamic';
import { syncUnreadTitle } from '@/lib/realtime/unread-title';
import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { Sidebar } from '@/components/chat/sidebar';
import { Spinner } from '@/components/ui/spinner';
import { EmptyState } from '@/components/ui/empty-state';
import { ChatIcon } from '@/components/ui/icons';
import { NotificationPrompt } from '@/components/notifications/notification-prompt';
import { AppHeader } from './app-header';
import styles from './main-screen.module.css';

// The open thread (its virtualised list, the composer, uploads) is not needed to show the list:
// it is fetched when a conversation is about to be opened (pointer over or focus in the list
// column), alongside the thread's messages, which keeps /main's first load small.
const loadThreadView = () => import('@/components/chat/thread-view');
const preloadThreadView = () => void loadThreadView().catch(() => {});

function ThreadLoading() {
  const t = useT();
  return (
    <div className={styles.nothingOpen}>
      <Spinner label={t('common.loading')} />
    </div>
  );
}

const ThreadView = dynamic(() => loadThreadView().then((module) => module.ThreadView), { loading: ThreadLoading });

/**
 * The signed-in area: conversations (or search results) on the left, the open thread on the
 * right. On a phone they are separate views: the list, or the thread with a back button.
 */
export function MainScreen() {
  const t = useT();
  const receiver = useSessionStore((state) => state.receiver);

  useEffect(() => syncUnreadTitle(), []);

  return (
    <div className={styles.shell}>
      <AppHeader />
      <NotificationPrompt />
      <main className={styles.main} data-view={receiver === null ? 'list' : 'thread'}>
        <div className={styles.listColumn} onPointerOver={preloadThreadView} onFocus={preloadThreadView}>
          <Sidebar />
        </div>
        <div className={styles.threadColumn}>
          {receiver === null ? (
            <div className={styles.nothingOpen}>
              <EmptyState icon={<ChatIcon />} title={t('thread.noneSelected')} />
            </div>
          ) : (
            <ThreadView key={receiver} peerId={receiver} />
          )}
        </div>
      </main>
    </div>
  );
}
