import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initI18n } from '@/lib/i18n';
import { useSessionStore } from '@/lib/stores/session-store';
import { SearchBox } from './search-box';

const search = () => useSessionStore.getState().search;

describe('SearchBox', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(cleanup);

  it('is a labelled search box that writes what is typed to the session search value', async () => {
    render(<SearchBox />);
    const box = screen.getByRole('searchbox', { name: 'Search people' });
    await userEvent.type(box, 'ada');
    expect(search()).toBe('ada');
  });

  it('shows the store’s value, however it was set', () => {
    render(<SearchBox />);
    act(() => useSessionStore.getState().setSearch('grace'));
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('grace');
  });

  it('clears with its button, which keeps the focus in the box', async () => {
    useSessionStore.getState().setSearch('lin');
    render(<SearchBox />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(search()).toBe('');
    expect(document.activeElement).toBe(screen.getByRole('searchbox'));
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
  });

  it('clears with Escape', async () => {
    render(<SearchBox />);
    await userEvent.type(screen.getByRole('searchbox'), 'bob{Escape}');
    expect(search()).toBe('');
  });
});
