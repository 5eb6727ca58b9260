import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { initI18n } from '@/lib/i18n';
import { usePresenceStore } from '@/lib/stores/presence-store';
import { useTypingStore } from '@/lib/stores/typing-store';
import { PresenceLine } from './presence-line';

describe('PresenceLine', () => {
  beforeEach(() => initI18n('en'));
  afterEach(cleanup);

  it('says nothing while nothing is known', () => {
    const { container } = render(<PresenceLine peerId={2} name="Ada" />);
    expect(container.textContent).toBe('');
  });

  it('says online, then when they were last seen, as the store changes', () => {
    render(<PresenceLine peerId={2} name="Ada" />);
    act(() => usePresenceStore.getState().apply({ user_id: 2, online: true, last_seen_at: null }));
    expect(screen.getByText('Online')).toBeTruthy();
    act(() => usePresenceStore.getState().apply({ user_id: 2, online: false, last_seen_at: new Date(Date.now() - 3.5 * 60_000).toISOString() }));
    expect(screen.getByText('Last seen 3 min. ago')).toBeTruthy();
  });

  it('announces typing in a status region, in place of the presence', () => {
    act(() => usePresenceStore.getState().apply({ user_id: 2, online: true, last_seen_at: null }));
    render(<PresenceLine peerId={2} name="Ada" />);
    expect(screen.getByRole('status').textContent).toBe('');
    act(() => useTypingStore.getState().setTyping(2, true));
    expect(screen.getByRole('status').textContent).toBe('Ada is typing…');
    expect(screen.queryByText('Online')).toBeNull();
    act(() => useTypingStore.getState().setTyping(2, false));
    expect(screen.getByText('Online')).toBeTruthy();
  });
});
