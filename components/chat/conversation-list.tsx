import { useCallback, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { openConversation } from '@/lib/routing/conversation-route';
import { useConversationsStore } from '@/lib/stores/conversations-store';
import { usePresenceStore } from '@/lib/stores/presence-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useThreadStore } from '@/lib/stores/thread-store';
import { useTypingStore } from '@/lib/stores/typing-store';
import { useT, useLanguage } from '@/lib/i18n';
import { EmptyState } from '@/components/ui/empty-state';
import { ChatIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import buttons from '@/components/ui/button.module.css';
import { ConversationRow, NewConversationRow } from './conversation-row';
import { useNow } from './use-now';
import styles from './conversations.module.css';

/** Up and down arrows move between rows; Tab still goes through them one by one. */
function moveFocus(event: KeyboardEvent<HTMLUListElement>) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp' && event.key !== 'Home' && event.key !== 'End') return;
  const rows = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[data-row]')];
  const index = rows.indexOf(document.activeElement as HTMLButtonElement);
  if (index === -1) return;
  const target =
    event.key === 'Home' ? 0 : event.key === 'End' ? rows.length - 1 : index + (event.key === 'ArrowDown' ? 1 : -1);
  const row = rows[Math.max(0, Math.min(rows.length - 1, target))];
  if (!row) return;
  event.preventDefault();
  row.focus();
}

/** Everyone the user has exchanged messages with, newest first, each with its unread badge. */
export function ConversationList() {
  const t = useT();
  const language = useLanguage();
  const now = useNow();
  const me = useSessionStore((state) => state.user?.id ?? null);
  const receiver = useSessionStore((state) => state.receiver);
  const { conversations, status, error, nextCursor, loadingMore } = useConversationsStore(
    useShallow((state) => ({
      conversations: state.conversations,
      status: state.status,
      error: state.error,
      nextCursor: state.nextCursor,
      loadingMore: state.loadingMore,
    })),
  );
  const presence = usePresenceStore((state) => state.presence);
  const typing = useTypingStore((state) => state.typing);
  const receiverNotFound = useThreadStore((state) => {
    const kind = receiver === null ? null : state.threads[receiver]?.errorKind;
    return kind === 'notFound' || kind === 'invalid';
  });
  const open = useCallback((peerId: number) => openConversation(peerId), []);

  if (status === 'idle' || status === 'loading') {
    return (
      <div className={styles.loading}>
        <Spinner label={t('common.loading')} />
      </div>
    );
  }

  if (status === 'error') {
    return (
      <div className={styles.problem} role="alert">
        <p>{t('conversations.loadFailed', { message: error ?? t('common.errorGeneric') })}</p>
        <button type="button" className={buttons.button} onClick={() => void useConversationsStore.getState().loadConversations()}>
          {t('common.retry')}
        </button>
      </div>
    );
  }

  // A conversation just opened with someone new (from search, or its URL) is in the list at once,
  // before its first message makes it a row like the others; an address that names no one gets none.
  const opened = receiver !== null && !receiverNotFound && !conversations.some((conversation) => conversation.user.id === receiver);

  if (conversations.length === 0 && !opened) {
    return (
      <EmptyState icon={<ChatIcon />} title={t('conversations.empty')}>
        {t('conversations.emptyHint')}
      </EmptyState>
    );
  }

  return (
    <nav className={styles.conversations} aria-label={t('conversations.title')}>
      <ul className={styles.list} onKeyDown={moveFocus}>
        {opened ? <NewConversationRow peerId={receiver} me={me} /> : null}
        {conversations.map((conversation) => (
          <ConversationRow
            key={conversation.user.id}
            conversation={conversation}
            me={me}
            selected={conversation.user.id === receiver}
            now={now}
            language={language}
            online={presence[conversation.user.id]?.online === true}
            typing={typing[conversation.user.id] === true}
            onOpen={open}
          />
        ))}
      </ul>
      {error ? (
        <p className={styles.inlineError} role="alert">
          {t('conversations.loadFailed', { message: error })}
        </p>
      ) : null}
      {nextCursor ? (
        <div className={styles.more}>
          <button
            type="button"
            className={buttons.button}
            aria-busy={loadingMore}
            disabled={loadingMore}
            onClick={() => void useConversationsStore.getState().loadMoreConversations()}
          >
            {loadingMore ? t('common.loading') : t('conversations.loadMore')}
          </button>
        </div>
      ) : null}
    </nav>
  );
}
