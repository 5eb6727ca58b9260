import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SettingsRequest, User } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { deferred } from '@/lib/testing/deferred';
import { account } from '@/lib/testing/fixtures';
import { PresenceSection } from './presence-section';

const accounts = vi.hoisted(() => ({ updateSettings: vi.fn<(settings: SettingsRequest) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => accounts);

const me = account();

describe('PresenceSection', () => {
  beforeEach(async () => {
    accounts.updateSettings.mockReset();
    publishUser(me);
    await initI18n('en');
  });
  afterEach(cleanup);

  it('turns presence off on the server and publishes the user it answers with', async () => {
    accounts.updateSettings.mockImplementation(async (settings) => ({ ...me, show_presence: settings.show_presence ?? true }));
    render(<PresenceSection />);
    const box = screen.getByRole('checkbox', { name: 'Show when I’m online' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await userEvent.click(box);
    expect(accounts.updateSettings).toHaveBeenCalledExactlyOnceWith({ show_presence: false });
    expect(await screen.findByText('Privacy setting saved.')).toBeTruthy();
    expect(useSessionStore.getState().user?.show_presence).toBe(false);
    expect(box.checked).toBe(false);
  });

  /** The switch pressed while the server's answer waits. */
  async function pressWhileWaiting() {
    const answer = deferred<User>();
    accounts.updateSettings.mockReturnValue(answer.promise);
    render(<PresenceSection />);
    const box = screen.getByRole('checkbox', { name: 'Show when I’m online' }) as HTMLInputElement;
    await userEvent.click(box);
    return { answer, box };
  }

  it('moves at once, before the server answers', async () => {
    const { answer, box } = await pressWhileWaiting();
    expect(box.checked).toBe(false);
    expect(box.disabled).toBe(false);
    answer.resolve({ ...me, show_presence: false });
    expect(await screen.findByText('Privacy setting saved.')).toBeTruthy();
    expect(box.checked).toBe(false);
  });

  it('moves back when the server refuses, and says so and why', async () => {
    const { answer, box } = await pressWhileWaiting();
    expect(box.checked).toBe(false);
    answer.reject(Object.assign(new Error('Request failed'), { name: 'HTTPError', response: { status: 503 } }));
    expect(await screen.findByText('Not turned off, so it is still on: Parley is having trouble right now. Try again in a moment.')).toBeTruthy();
    expect(box.checked).toBe(true);
    expect(useSessionStore.getState().user?.show_presence).toBe(true);
  });

  it('saves quick changes in the order made; the switch shows the last', async () => {
    const answers = [deferred<User>(), deferred<User>()];
    accounts.updateSettings.mockReturnValueOnce(answers[0]!.promise).mockReturnValueOnce(answers[1]!.promise);
    render(<PresenceSection />);
    const box = screen.getByRole('checkbox', { name: 'Show when I’m online' }) as HTMLInputElement;
    await userEvent.click(box);
    await userEvent.click(box);
    expect(box.checked).toBe(true);
    // The second waits for the first.
    expect(accounts.updateSettings).toHaveBeenCalledTimes(1);
    answers[0]!.resolve({ ...me, show_presence: false });
    await vi.waitFor(() => expect(accounts.updateSettings).toHaveBeenCalledTimes(2));
    expect(box.checked).toBe(true);
    answers[1]!.resolve({ ...me, show_presence: true });
    expect(await screen.findByText('Privacy setting saved.')).toBeTruthy();
    expect(accounts.updateSettings.mock.calls.map(([settings]) => settings)).toEqual([{ show_presence: false }, { show_presence: true }]);
    expect(box.checked).toBe(true);
  });
});
