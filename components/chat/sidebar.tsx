import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { SearchBox } from '@/components/people/search-box';
import { SearchResults } from '@/components/people/search-results';
import { useMessageSearchStore } from '@/lib/stores/message-search-store';
import buttons from '@/components/ui/button.module.css';
import { ConversationList } from './conversation-list';
import { MessageSearch } from './message-search';
import styles from './conversations.module.css';

/**
 * The left column: search on top; the results while searching, the conversations otherwise.
 * Two searches, kept apart: people (by name or email, the box) and messages (behind its button).
 */
export function Sidebar() {
  const t = useT();
  const searching = useSessionStore((state) => state.search.trim() !== '');
  const searchingMessages = useMessageSearchStore((state) => state.open);

  if (searchingMessages) {
    return (
      <div className={styles.sidebar}>
        <div className={styles.sidebarTop}>
          <h2 className={styles.title}>{t('messageSearch.open')}</h2>
        </div>
        <div className={styles.sidebarBody}>
          <MessageSearch />
        </div>
      </div>
    );
  }

  return (
    <div className={styles.sidebar}>
      <div className={styles.sidebarTop}>
        <h2 className={styles.title}>{t('conversations.title')}</h2>
        <SearchBox />
        <button type="button" className={`${buttons.button} ${buttons.small} ${styles.searchToggle}`} onClick={() => useMessageSearchStore.getState().setOpen(true)}>
          {t('messageSearch.open')}
        </button>
      </div>
      <div className={styles.sidebarBody}>{searching ? <SearchResults /> : <ConversationList />}</div>
    </div>
  );
}
