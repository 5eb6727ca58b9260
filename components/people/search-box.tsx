import { useId, useRef } from 'react';
import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { CloseIcon, SearchIcon } from '@/components/ui/icons';
import styles from './people.module.css';

/**
 * The session's search value (docs/CLIENT-RULES.md, "Session values and storage"). The people
 * store searches on its own (debounced) when the value changes; this box only writes it.
 */
export function SearchBox() {
  const t = useT();
  const id = useId();
  const search = useSessionStore((state) => state.search);
  const setSearch = useSessionStore((state) => state.setSearch);
  const inputRef = useRef<HTMLInputElement>(null);

  return (
    <form className={styles.search} role="search" onSubmit={(event) => event.preventDefault()}>
      <label htmlFor={id} className="visually-hidden">
        {t('search.label')}
      </label>
      <SearchIcon className={styles.searchIcon} size={18} />
      <input
        ref={inputRef}
        id={id}
        type="search"
        className={styles.searchInput}
        value={search}
        placeholder={t('search.placeholder')}
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        onChange={(event) => setSearch(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && search !== '') {
            event.preventDefault();
            setSearch('');
          }
        }}
      />
      {search !== '' ? (
        <button type="button" className={styles.searchClear} aria-label={t('search.clear')}
          onClick={() => {
            setSearch('');
            // The button goes away with the text: keep the keyboard user in the box.
            inputRef.current?.focus();
          }}
        >
          <CloseIcon size={16} />
        </button>
      ) : null}
    </form>
  );
}
