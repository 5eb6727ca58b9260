import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ProfileRequest, User } from '@/lib/contract';
import { initI18n } from '@/lib/i18n';
import { appDevicePreferences } from '@/lib/notifications/device-preferences';
import { publishUser, useSessionStore } from '@/lib/stores/session-store';
import { NamePrompt } from './name-prompt';

const accounts = vi.hoisted(() => ({ updateProfile: vi.fn<(change: ProfileRequest) => Promise<User>>() }));
vi.mock('@/lib/api/accounts', () => accounts);

let nextId = 100;
const nameless = (): User => ({ id: (nextId += 1), username: null, email: 'x@example.com', avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true });

describe('NamePrompt', () => {
  beforeEach(async () => {
    accounts.updateProfile.mockReset();
    await initI18n('en');
  });
  afterEach(cleanup);

  it('asks someone with no name for one, right there, and goes once it is saved', async () => {
    const me = nameless();
    publishUser(me);
    accounts.updateProfile.mockImplementation(async (change) => ({ ...me, username: change.username ?? null }));
    render(<NamePrompt />);
    expect(await screen.findByRole('heading', { name: 'Add your name' })).toBeTruthy();
    expect(screen.getByText('People see you as “Unknown user” until you do. A name tells them who is writing.')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter a name with at least one visible character.');
    fireEvent.change(screen.getByRole('textbox', { name: 'Display name' }), { target: { value: '  Ada  ' } });
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(accounts.updateProfile).toHaveBeenCalledExactlyOnceWith({ username: 'Ada' });
    expect(useSessionStore.getState().user?.username).toBe('Ada');
    expect(screen.queryByRole('heading', { name: 'Add your name' })).toBeNull();
  });

  it('"Not now" hides it, and it stays hidden for that person on this browser', async () => {
    const me = nameless();
    publishUser(me);
    render(<NamePrompt />);
    await userEvent.click(await screen.findByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('heading', { name: 'Add your name' })).toBeNull();
    await vi.waitFor(async () => expect((await appDevicePreferences().load(me.id)).namePromptDismissed).toBe(true));
    cleanup();

    render(<NamePrompt />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Add your name' })).toBeNull();
  });

  it('is not shown to someone with a name', async () => {
    publishUser({ ...nameless(), username: 'Grace' });
    render(<NamePrompt />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Add your name' })).toBeNull();
  });

  it('speaks the reader’s language', async () => {
    publishUser(nameless());
    await initI18n('fr');
    render(<NamePrompt />);
    expect(await screen.findByRole('heading', { name: 'Ajoutez votre nom' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Plus tard' })).toBeTruthy();
    await initI18n('en');
  });
});
