import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import type { SearchResult } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { usePeopleStore } from '@/lib/stores/people-store';
import { useSessionStore } from '@/lib/stores/session-store';
import { SearchResults } from './search-results';

const person = (id: number, username: string, canMessage: boolean): SearchResult => ({
  id,
  username,
  avatar: null,
  is_following: false,
  follows_you: false,
  deleted: false,
  can_message: canMessage,
});

describe('SearchResults', () => {
  beforeEach(async () => {
    await initI18n('en');
    useSessionStore.getState().setSearch('a');
    usePeopleStore.setState({ searchQuery: 'a', searchStatus: 'ready', searchResults: [person(2, 'Ada', true), person(3, 'Alan', false)] });
  });
  afterEach(cleanup);

  it('offers Message only to people who would accept it, and says why to the others', () => {
    render(<SearchResults />);
    expect(screen.getByRole('link', { name: 'Message Ada' }).getAttribute('href')).toBe('/main/2');
    expect(screen.queryByRole('link', { name: 'Message Alan' })).toBeNull();
    const alan = screen.getByRole('button', { name: /^Alan/ }).closest('li');
    expect(alan?.textContent).toContain('Doesn’t accept messages from you');
  });

  it('follows what the store learns later (a follow, a block)', () => {
    render(<SearchResults />);
    act(() => usePeopleStore.setState({ searchResults: [person(2, 'Ada', false), person(3, 'Alan', true)] }));
    expect(screen.queryByRole('link', { name: 'Message Ada' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Message Alan' })).toBeTruthy();
  });
});
