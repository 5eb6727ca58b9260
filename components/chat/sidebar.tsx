import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { SearchBox } from '@/components/people/search-box';
import { SearchResults } from '@/components/people/search-results';
import { ConversationList } from './conversation-list';
import styles from './conversations.module.css';

/** The left column: search on top; the results while searching, the conversations otherwise. */
export function Sidebar() {
  const t = useT();
  const searching = useSessionStore((state) => state.search.trim() !== '');

  return (
    <div className={styles.sidebar}>
      <div className={styles.sidebarTop}>
        <h2 className={styles.title}>{t('conversations.title')}</h2>
        <SearchBox />
      </div>
      <div className={styles.sidebarBody}>{searching ? <SearchResults /> : <ConversationList />}</div>
    </div>
  );
}
