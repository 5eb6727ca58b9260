import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { initI18n } from '@/lib/i18n';
import { useConnectionStore } from '@/lib/stores/connection-store';
import { ConnectionIndicator } from './connection-indicator';

describe('ConnectionIndicator', () => {
  beforeEach(async () => {
    await initI18n('en');
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('says when the page is out of date, and reloads it from there', () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    useConnectionStore.getState().setStatus('outdated');
    render(<ConnectionIndicator />);
    const button = screen.getByRole('button', { name: 'New version: reload' });
    expect(screen.getByRole('status').getAttribute('title')).toBe('Parley has been updated. Reload the page to keep receiving messages.');
    fireEvent.click(button);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['es', 'Nueva versión: recargar'],
    ['fr', 'Nouvelle version : recharger'],
  ] as const)('in %s too', async (language, name) => {
    await initI18n(language);
    useConnectionStore.getState().setStatus('outdated');
    render(<ConnectionIndicator />);
    expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('has no button while connecting', () => {
    useConnectionStore.getState().setStatus('connecting');
    render(<ConnectionIndicator />);
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Reconnecting…');
  });
});
