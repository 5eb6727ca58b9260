import { useShallow } from 'zustand/react/shallow';
import type { UserSummary } from '@/lib/contract';
import { openConversation } from '@/lib/realtime/read-marking';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { EmptyState } from '@/components/ui/empty-state';
import { SearchIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { BlockButton } from './block-button';
import { FollowButton, FollowChips } from './follow-button';
import styles from './people.module.css';

/** People matching the search value: open a conversation with one, or follow them. */
export function SearchResults() {
  const t = useT();
  const { query, results, status, error } = usePeopleStore(
    useShallow((state) => ({
      query: state.searchQuery,
      results: state.searchResults,
      status: state.searchStatus,
      error: state.searchError,
    })),
  );
  const typed = useSessionStore((state) => state.search).trim();
  // Between a keystroke and the debounced request the store still holds the previous query.
  const waiting = status === 'loading' || typed !== query;

  function open(person: UserSummary) {
    openConversation(person.id);
    useSessionStore.getState().setSearch('');
  }

  let body;
  if (status === 'error' && !waiting) {
    body = (
      <p className={styles.error} role="alert">
        {t('search.failed', { message: error ?? t('common.errorGeneric') })}
      </p>
    );
  } else if (results.length === 0) {
    body = waiting ? (
      <Spinner label={t('search.searching')} />
    ) : (
      <EmptyState icon={<SearchIcon />} title={t('search.noResults', { query })} />
    );
  } else {
    body = (
      <ul className={styles.results} aria-busy={waiting}>
        {results.map((person) => {
          const name = person.username || t('common.unknownUser');
          return (
            <li key={person.id} className={styles.result}>
              <button type="button" className={styles.resultMain} onClick={() => open(person)} title={t('people.messageUser', { name })}>
                <Avatar name={name} src={person.avatar} size={40} />
                <span className={styles.resultText}>
                  <span className={styles.resultName}>{name}</span>
                  <FollowChips user={person} />
                </span>
              </button>
              <FollowButton user={person} name={name} />
              {/* Blocked from here, they leave the results with the next search (the server hides them). */}
              <BlockButton user={person} name={name} blocked={false} onBlocked={() => void usePeopleStore.getState().search(query)} />
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className={styles.resultsSection} aria-label={t('search.label')}>
      <p className="visually-hidden" role="status">
        {!waiting && status === 'ready' ? t('search.results', { count: results.length }) : ''}
      </p>
      {body}
    </section>
  );
}
