import { useSessionStore } from '@/lib/stores/session-store';
import { useT } from '@/lib/i18n';
import { SearchField } from '@/components/ui/search-field';

/**
 * The session's search value (docs/CLIENT-RULES.md, "Session values and storage"). The people
 * store searches on its own (debounced) when the value changes; this box only writes it.
 */
export function SearchBox() {
  const t = useT();
  const search = useSessionStore((state) => state.search);
  const setSearch = useSessionStore((state) => state.setSearch);
  const clear = () => {
    if (search === '') return false;
    setSearch('');
    return true;
  };

  return (
    <SearchField
      label={t('search.label')}
      placeholder={t('search.placeholder')}
      value={search}
      onValueChange={setSearch}
      onEscape={clear}
      action={search !== '' ? { label: t('search.clear'), onClick: clear } : null}
      spellCheck={false}
    />
  );
}
