import { describe, expect, it, vi } from 'vitest';
import type { AccountInfo } from '@/lib/contract';
import { decideAfterLoad, runGuard, type GuardDeps } from './guard';
import { areaOf, decideRoute } from '@/lib/routing/route-guard';

const active: AccountInfo = { id: 7, username: 'ada', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

function fakeDeps(token: string | null, info: () => Promise<AccountInfo>) {
  return {
    getStoredToken: vi.fn(() => token),
    fetchAccountInfo: vi.fn(info),
    initSocket: vi.fn(),
    publishUser: vi.fn(),
    signOut: vi.fn(),
    navigate: vi.fn(),
    waitUntilOnline: vi.fn(() => Promise.resolve()),
  } satisfies GuardDeps;
}

describe('guard decisions', () => {
  it('knows the account area from pathnames and area names', () => {
    expect(areaOf('/account')).toBe('account');
    expect(areaOf('/account/help')).toBe('account');
    expect(areaOf('account')).toBe('account');
    expect(areaOf('/accounts')).toBe('main');
    expect(areaOf('/main')).toBe('main');
    expect(areaOf('/')).toBe('main');
  });

  it('account route: a stored token redirects to /main, none allows', () => {
    expect(decideRoute('/account', true)).toEqual({ kind: 'redirect', to: '/main' });
    expect(decideRoute('/account', false)).toEqual({ kind: 'allow' });
  });

  it('other routes: no token redirects to /account, a token loads the user', () => {
    expect(decideRoute('/main', false)).toEqual({ kind: 'redirect', to: '/account' });
    expect(decideRoute('/main', true)).toEqual({ kind: 'load-user' });
  });

  it('after loading: only an active user is allowed', () => {
    expect(decideAfterLoad({ ok: true, info: active })).toEqual({ kind: 'allow', user: active });
    expect(decideAfterLoad({ ok: true, info: { ...active, is_active: false } })).toEqual({
      kind: 'sign-out',
      to: '/account',
    });
    expect(decideAfterLoad({ ok: false, error: new Error('500') })).toEqual({ kind: 'sign-out', to: '/account' });
  });
});

describe('runGuard', () => {
  it('blocks the account screen when signed in, before anything loads or renders', async () => {
    const deps = fakeDeps('Bearer abc', async () => active);
    await expect(runGuard('/account', deps)).resolves.toBe('blocked');
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/main');
    expect(deps.fetchAccountInfo).not.toHaveBeenCalled();
    expect(deps.publishUser).not.toHaveBeenCalled();
  });

  it('allows the account screen when signed out', async () => {
    const deps = fakeDeps(null, async () => active);
    await expect(runGuard('/account', deps)).resolves.toBe('allow');
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('sends a signed-out visitor of main to /account without calling the API', async () => {
    const deps = fakeDeps(null, async () => active);
    await expect(runGuard('/main', deps)).resolves.toBe('blocked');
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/account');
    expect(deps.fetchAccountInfo).not.toHaveBeenCalled();
  });

  it('with a token and an active user: socket init with the id, user published, allowed', async () => {
    const order: string[] = [];
    const deps = fakeDeps('Bearer abc', async () => active);
    deps.initSocket.mockImplementation(() => order.push('init'));
    deps.publishUser.mockImplementation(() => order.push('publish'));
    await expect(runGuard('main', deps)).resolves.toBe('allow');
    expect(deps.initSocket).toHaveBeenCalledWith(7);
    expect(deps.publishUser).toHaveBeenCalledWith(active);
    expect(order).toEqual(['init', 'publish']);
    expect(deps.signOut).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('an inactive user is signed out and sent to /account', async () => {
    const deps = fakeDeps('Bearer abc', async () => ({ ...active, is_active: false }));
    await expect(runGuard('/main', deps)).resolves.toBe('blocked');
    expect(deps.signOut).toHaveBeenCalledOnce();
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/account');
    expect(deps.initSocket).not.toHaveBeenCalled();
    expect(deps.publishUser).not.toHaveBeenCalled();
  });

  it('a failed account info call signs out and blocks', async () => {
    const deps = fakeDeps('Bearer abc', () => Promise.reject(new Error('Service Unavailable')));
    await expect(runGuard('/main', deps)).resolves.toBe('blocked');
    expect(deps.signOut).toHaveBeenCalledOnce();
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/account');
    expect(deps.publishUser).not.toHaveBeenCalled();
  });

  it('offline, waits for the network before loading the user: no call, no sign-out meanwhile', async () => {
    let online!: () => void;
    const deps = { ...fakeDeps('Bearer abc', async () => active), waitUntilOnline: vi.fn(() => new Promise<void>((resolve) => (online = resolve))) };
    const result = runGuard('/main', deps);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(deps.fetchAccountInfo).not.toHaveBeenCalled();
    expect(deps.signOut).not.toHaveBeenCalled();
    online();
    await expect(result).resolves.toBe('allow');
    expect(deps.fetchAccountInfo).toHaveBeenCalledOnce();
  });
});
