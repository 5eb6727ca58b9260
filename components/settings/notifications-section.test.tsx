import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SettingsRequest, User } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { useNotificationStore } from '@/lib/stores/notification-store';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { account } from '@/lib/testing/fixtures';
import { NotificationsSection } from './notifications-section';

const api = vi.hoisted(() => ({ updateSettings: vi.fn<(settings: SettingsRequest) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => ({ updateSettings: api.updateSettings }));

const me: User = account({ id: 7 });

describe('NotificationsSection (the settings dialog)', () => {
  beforeEach(async () => {
    await initI18n('en');
    api.updateSettings.mockReset();
    publishUser(me);
    useNotificationStore.getState().update({ permission: 'granted', loaded: true });
  });
  afterEach(cleanup);

  it('shows the account’s choices and saves a new one for every device', async () => {
    api.updateSettings.mockImplementation(async (settings) => ({ ...me, ...settings }) as User);
    render(<NotificationsSection />);
    expect(screen.getByRole('region', { name: 'Notifications' })).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'The sender and the message' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Desktop notifications' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByRole('radio', { name: 'Only the sender' }));
    expect(await screen.findByText('Notification settings saved.')).toBeTruthy();
    expect(api.updateSettings).toHaveBeenCalledExactlyOnceWith({ notification_preview: 'sender' });
    expect(useSessionStore.getState().user?.notification_preview).toBe('sender');
    expect((screen.getByRole('radio', { name: 'Only the sender' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByRole('checkbox', { name: 'Play a sound' }));
    await vi.waitFor(() => expect(useSessionStore.getState().user?.notification_sound).toBe(false));
    expect(api.updateSettings).toHaveBeenLastCalledWith({ notification_sound: false });
  });

  it('says why when saving fails, and keeps what was saved', async () => {
    api.updateSettings.mockRejectedValue(new Error('Network down'));
    render(<NotificationsSection />);
    fireEvent.click(screen.getByRole('radio', { name: 'Nothing: “You have a new message”' }));
    // The alert region may be in the page before its words are: wait for the words.
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toBe('Could not save the notification settings: Network down'));
    expect((screen.getByRole('radio', { name: 'The sender and the message' }) as HTMLInputElement).checked).toBe(true);
  });

  it('blocked in this browser: the switch is off and says how to allow them again', () => {
    useNotificationStore.getState().update({ permission: 'denied' });
    render(<NotificationsSection />);
    const desktop = screen.getByRole('checkbox', { name: 'Desktop notifications' }) as HTMLInputElement;
    expect([desktop.checked, desktop.disabled]).toEqual([false, true]);
    expect(screen.getByText(/Notifications are blocked for Parley in this browser/)).toBeTruthy();
  });
});
