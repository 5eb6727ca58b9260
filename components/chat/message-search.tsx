import { useEffect, type ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { MessageSearchResult, TextRange } from '@/lib/contract';
import { openMessage } from '@/lib/routing/conversation-route';
import { useMessageSearchStore } from '@/lib/stores/message-search-store';
import { useLanguage, useT } from '@/lib/i18n';
import { SearchField } from '@/components/ui/search-field';
import { Spinner } from '@/components/ui/spinner';
import people from '@/components/people/people.module.css';
import { formatFull, formatShort, parseTime } from './time-format';
import { useNow } from './use-now';
import styles from './conversations.module.css';

/** Typing pauses this long before a search goes out. */
const SEARCH_DELAY_MS = 300;

/** The text with its matching parts in <mark>: text nodes only, never markup from the server. */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly TextRange[] }) {
  const parts: ReactNode[] = [];
  let at = 0;
  for (const { start, end } of [...ranges].sort((a, b) => a.start - b.start)) {
    if (start < at || end > text.length || start >= end) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>);
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

function Result({ result, now }: { result: MessageSearchResult; now: Date }) {
  const t = useT();
  const language = useLanguage();
  const time = parseTime(result.message.created_at);
  const name = result.user.deleted ? t('safety.deletedAccount') : result.user.username || t('common.unknownUser');
  return (
    <li>
      <button type="button" className={people.resultMain} onClick={() => openMessage(result.user.id, result.message.id)}>
        <span className={people.resultText}>
          <span className={people.resultName}>{name}</span>
          <span className={styles.searchSnippet}>
            <Highlighted text={result.message.text} ranges={result.highlights} />
          </span>
          {time ? (
            <time dateTime={result.message.created_at} title={formatFull(time, language)}>
              {formatShort(time, now, language)}
            </time>
          ) : null}
        </span>
      </button>
    </li>
  );
}

/** Search in the user's messages, in the side panel instead of people search; results open the conversation at the message. */
export function MessageSearch() {
  const t = useT();
  const now = useNow();
  const { query, status, results, nextCursor, loadingMore, error } = useMessageSearchStore(
    useShallow((state) => ({
      query: state.query,
      status: state.status,
      results: state.results,
      nextCursor: state.nextCursor,
      loadingMore: state.loadingMore,
      error: state.error,
    })),
  );
  const close = () => useMessageSearchStore.getState().setOpen(false);

  useEffect(() => {
    if (query.trim() === '') return;
    const timer = setTimeout(() => void useMessageSearchStore.getState().search(), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [query]);

  const announcement =
    status === 'loading' ? t('messageSearch.searching')
    : status === 'error' ? t('messageSearch.failed', { message: error ?? '' })
    : status === 'ready' ? (results.length === 0 ? t('messageSearch.none', { query: query.trim() }) : t('messageSearch.results', { count: results.length }))
    : '';

  return (
    <>
      <SearchField
        label={t('messageSearch.label')}
        placeholder={t('messageSearch.placeholder')}
        value={query}
        onValueChange={(value) => useMessageSearchStore.getState().setQuery(value)}
        onEscape={() => {
          close();
          return true;
        }}
        action={{ label: t('messageSearch.close'), onClick: close }}
        focusOnMount
      />
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
      {status === 'loading' && results.length === 0 ? <Spinner label={t('messageSearch.searching')} /> : null}
      {status === 'ready' && results.length === 0 ? <p className={styles.searchEmpty}>{t('messageSearch.none', { query: query.trim() })}</p> : null}
      {status === 'error' ? <p className={styles.searchEmpty}>{announcement}</p> : null}
      {results.length > 0 ? (
        <section className={people.resultsSection} aria-label={t('messageSearch.listLabel')}>
          <ul className={people.results} aria-busy={status === 'loading'}>
            {results.map((result) => (
              <Result key={result.message.id} result={result} now={now} />
            ))}
          </ul>
          {nextCursor ? (
            <button type="button" className={styles.searchMore} disabled={loadingMore} onClick={() => void useMessageSearchStore.getState().loadMore()}>
              {t('messageSearch.more')}
            </button>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
