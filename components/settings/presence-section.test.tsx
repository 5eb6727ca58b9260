import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SettingsRequest, User } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { ME } from '@/lib/testing/fixtures';
import { PresenceSection } from './presence-section';

const accounts = vi.hoisted(() => ({ updateSettings: vi.fn<(settings: SettingsRequest) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => accounts);

const me: User = { id: ME, username: 'me', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

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

  it('says why when the server refuses, and keeps the setting as it was', async () => {
    accounts.updateSettings.mockRejectedValue(new Error('Server unreachable'));
    render(<PresenceSection />);
    const box = screen.getByRole('checkbox', { name: 'Show when I’m online' }) as HTMLInputElement;
    await userEvent.click(box);
    expect(await screen.findByText('Could not save the privacy setting: Server unreachable')).toBeTruthy();
    expect(box.checked).toBe(true);
  });
});
