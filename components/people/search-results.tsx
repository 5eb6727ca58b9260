import type { MouseEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { SearchResult } from '@/lib/contract';
import { conversationPath, openConversation } from '@/lib/routing/conversation-route';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { EmptyState } from '@/components/ui/empty-state';
import { ChatIcon, SearchIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import buttons from '@/components/ui/button.module.css';
import { BlockButton } from './block-button';
import { FollowButton, FollowChips } from './follow-button';
import styles from './people.module.css';

/** A plain click opens it here; a middle click, or one with a modifier, is the browser's (a new tab). */
function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/** People matching the search value: message one (the conversation, at its URL), follow or block them. */
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

  function open(person: SearchResult) {
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
              <button type="button" className={styles.resultMain} onClick={() => open(person)}>
                <Avatar name={name} src={person.avatar} size={40} />
                <span className={styles.resultText}>
                  <span className={styles.resultName}>{name}</span>
                  <FollowChips user={person} />
                </span>
              </button>
              <span className={styles.resultActions}>
                {/* Their "who can message me" refuses the user: why, instead of an action that would fail. */}
                {!person.can_message ? (
                  <span className={styles.cannotMessage}>{t('people.cannotMessage')}</span>
                ) : (
                  // A link: the conversation has its own address, to open in a new tab or copy.
                  <a
                    href={conversationPath(person.id)}
                    className={`${buttons.button} ${buttons.small} ${styles.messageLink}`}
                    aria-label={t('people.messageUser', { name })}
                    onClick={(event) => {
                      if (!isPlainClick(event)) return;
                      event.preventDefault();
                      open(person);
                    }}
                  >
                    <ChatIcon size={16} />
                    {t('people.message')}
                  </a>
                )}
                <FollowButton user={person} name={name} />
                {/* Blocked from here, they leave the results with the next search (the server hides them). */}
                <BlockButton user={person} name={name} blocked={false} onBlocked={() => void usePeopleStore.getState().search(query)} />
              </span>
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
