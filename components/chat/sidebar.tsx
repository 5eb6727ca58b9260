import dynamic from 'next/dynamic';
import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { SearchBox } from '@/components/people/search-box';
import { useMessageSearchStore } from '@/lib/stores/message-search-store';
import { Spinner } from '@/components/ui/spinner';
import buttons from '@/components/ui/button.module.css';
import { ConversationList } from './conversation-list';
import styles from './conversations.module.css';

// The two search panels are not part of the list's first load: each is its own chunk, fetched once
// the list is on screen and the page idle (lib/realtime/prefetch.ts), or as soon as the search
// area is focused, so the answer to a first query never waits for code.
const loadSearchResults = () => import('@/components/people/search-results');
const loadMessageSearch = () => import('./message-search');
export const preloadSearchPanels = () => void Promise.all([loadSearchResults(), loadMessageSearch()]).catch(() => {});

function PanelLoading() {
  const t = useT();
  return (
    <div className={styles.loading}>
      <Spinner label={t('common.loading')} />
    </div>
  );
}

const SearchResults = dynamic(() => loadSearchResults().then((module) => module.SearchResults), { loading: PanelLoading });
const MessageSearch = dynamic(() => loadMessageSearch().then((module) => module.MessageSearch), { loading: PanelLoading });

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
      <div className={styles.sidebarTop} onFocusCapture={preloadSearchPanels}>
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
