// Search as you type: the session's search value drives the people store's search,
// one request per pause in typing. Clearing the box clears the results at once.
import { debounce } from '@/lib/utils/debounce';
import { useMessageSearchStore } from './message-search-store';
import { usePeopleStore } from './people-store';
import { useSessionStore } from './session-store';

const SEARCH_DEBOUNCE_MS = 300;

/** Starts following the search value; returns the function that stops it. */
export function startSearchSync(delayMs: number = SEARCH_DEBOUNCE_MS): () => void {
  const run = debounce((query: string) => void usePeopleStore.getState().search(query), delayMs);

  function follow(value: string): void {
    if (value.trim() === '') {
      run.cancel();
      usePeopleStore.getState().clearSearch();
    } else {
      run(value);
    }
  }

  const unsubscribe = useSessionStore.subscribe((state, previous) => {
    if (state.search !== previous.search) follow(state.search);
  });
  // A value typed before sync started (a restored page) is searched too.
  if (useSessionStore.getState().search.trim() !== '') follow(useSessionStore.getState().search);

  return () => {
    unsubscribe();
    run.cancel();
  };
}

/**
 * Searches that failed run again: the people search for the value in the box, the message search
 * if its panel is open. The messaging session calls it each time the connection comes back, so an
 * error from while it was gone does not stay on screen with the network back.
 */
export function retryFailedSearches(): void {
  const people = usePeopleStore.getState();
  const typed = useSessionStore.getState().search;
  if (people.searchStatus === 'error' && typed.trim() !== '') void people.search(typed);
  const messages = useMessageSearchStore.getState();
  if (messages.open && messages.status === 'error') void messages.search();
}
