import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SettingsRequest, User } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { publishUser } from '@/lib/stores/session-store';
import { deferred } from '@/lib/testing/deferred';
import { account } from '@/lib/testing/fixtures';
import { SettingsMenu } from './settings-menu';

const accounts = vi.hoisted(() => ({ updateSettings: vi.fn<(settings: SettingsRequest) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => accounts);

const me = account();

describe('SettingsMenu', () => {
  beforeEach(async () => {
    accounts.updateSettings.mockReset();
    publishUser(me);
    await initI18n('en');
  });
  afterEach(cleanup);

  /** The menu opened, a new language chosen by keyboard while the server has not answered yet. */
  async function chooseSpanishWhileSaving() {
    const answer = deferred<User>();
    accounts.updateSettings.mockReturnValue(answer.promise);
    render(<SettingsMenu onOpenSettings={() => {}} />);
    const toggle = screen.getByRole('button', { name: 'Settings' });
    await userEvent.click(toggle);
    const spanish = screen.getByRole('radio', { name: 'Español' });
    // Whether any radio was disabled on the way: the browser takes the focus off a disabled one.
    let disabled = false;
    const watch = new MutationObserver(() => {
      disabled ||= screen.queryAllByRole('radio').some((radio) => (radio as HTMLInputElement).disabled);
    });
    watch.observe(document.body, { attributes: true, subtree: true, attributeFilter: ['disabled'] });
    spanish.focus();
    await userEvent.keyboard(' ');
    await waitFor(() => expect(document.documentElement.lang).toBe('es'));
    watch.disconnect();
    return { answer, toggle, spanish, everDisabled: disabled };
  }

  it('keeps the focus on the language chosen while it saves, and closes on Escape', async () => {
    const { answer, toggle, spanish, everDisabled } = await chooseSpanishWhileSaving();
    expect(accounts.updateSettings).toHaveBeenCalledExactlyOnceWith({ language: 'es' });
    expect((spanish as HTMLInputElement).checked).toBe(true);
    expect(everDisabled).toBe(false);
    expect(document.activeElement).toBe(spanish);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('radio', { name: 'Español' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    answer.resolve({ ...me, language: 'es' });
  });

  it('closes on Escape wherever the focus went', async () => {
    const { answer, toggle } = await chooseSpanishWhileSaving();
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('radio', { name: 'Español' })).toBeNull();
    expect(document.activeElement).toBe(toggle);
    answer.resolve({ ...me, language: 'es' });
  });

  it('leaves an Escape something else used alone, and the focus where the person put it', async () => {
    render(
      <>
        <SettingsMenu onOpenSettings={() => {}} />
        <input aria-label="Composer" onKeyDown={(event) => event.key === 'Escape' && event.currentTarget.value !== '' && event.preventDefault()} />
      </>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Settings' }));
    const composer = screen.getByRole('textbox', { name: 'Composer' });
    // Reached by keyboard (a press outside would close the menu).
    composer.focus();
    await userEvent.keyboard('a reply');
    // The composer cancels with this Escape: the menu stays.
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('radio', { name: 'English' })).toBeTruthy();
    await userEvent.keyboard('{Control>}a{/Control}{Backspace}');
    // Nothing to cancel: the menu closes, and the focus stays in the composer.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('radio', { name: 'English' })).toBeNull();
    expect(document.activeElement).toBe(composer);
  });
});
