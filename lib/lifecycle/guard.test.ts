import { describe, expect, it, vi } from 'vitest';
import type { AccountInfo } from '@/lib/contract';
import { decideAfterLoad, loadUser, type GuardDeps } from './guard';
import { areaOf, decideRoute, runRouteGuard, type RouteGuardDeps } from '@/lib/routing/route-guard';

const active: AccountInfo = { id: 7, username: 'ada', email: null, avatar: null, language: 'en', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };

function routeDeps(token: string | null) {
  return { getStoredToken: vi.fn(() => token), navigate: vi.fn() } satisfies RouteGuardDeps;
}

function fakeDeps(info: () => Promise<AccountInfo>) {
  return {
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

// The session layout's half (SessionGuard): the stored token alone decides, and a redirect is made at once.
describe('runRouteGuard', () => {
  it('blocks the account screen when signed in: redirected to /main, the user never to be loaded', () => {
    const deps = routeDeps('Bearer abc');
    expect(runRouteGuard('/account', deps)).toBe('blocked');
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/main');
  });

  it('allows the account screen when signed out', () => {
    const deps = routeDeps(null);
    expect(runRouteGuard('/account', deps)).toBe('allow');
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('sends a signed-out visitor of main to /account, leaving nothing to load', () => {
    const deps = routeDeps(null);
    expect(runRouteGuard('/main', deps)).toBe('blocked');
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/account');
  });

  it('with a token, main waits for the user to be loaded, without a redirect', () => {
    const deps = routeDeps('Bearer abc');
    expect(runRouteGuard('main', deps)).toBe('load-user');
    expect(deps.navigate).not.toHaveBeenCalled();
  });
});

// The main area's half (MainGate): with a token, the user is loaded before the area shows.
describe('loadUser', () => {
  it('an active user: socket init with the id, user published, allowed', async () => {
    const order: string[] = [];
    const deps = fakeDeps(async () => active);
    deps.initSocket.mockImplementation(() => order.push('init'));
    deps.publishUser.mockImplementation(() => order.push('publish'));
    await expect(loadUser(deps)).resolves.toBe('allow');
    expect(deps.initSocket).toHaveBeenCalledWith(7);
    expect(deps.publishUser).toHaveBeenCalledWith(active);
    expect(order).toEqual(['init', 'publish']);
    expect(deps.signOut).not.toHaveBeenCalled();
    expect(deps.navigate).not.toHaveBeenCalled();
  });

  it('an inactive user is signed out and sent to /account', async () => {
    const deps = fakeDeps(async () => ({ ...active, is_active: false }));
    await expect(loadUser(deps)).resolves.toBe('blocked');
    expect(deps.signOut).toHaveBeenCalledOnce();
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/account');
    expect(deps.initSocket).not.toHaveBeenCalled();
    expect(deps.publishUser).not.toHaveBeenCalled();
  });

  it('a failed account info call signs out and blocks', async () => {
    const deps = fakeDeps(() => Promise.reject(new Error('Service Unavailable')));
    await expect(loadUser(deps)).resolves.toBe('blocked');
    expect(deps.signOut).toHaveBeenCalledOnce();
    expect(deps.navigate).toHaveBeenCalledExactlyOnceWith('/account');
    expect(deps.publishUser).not.toHaveBeenCalled();
  });

  it('offline, waits for the network before loading the user: no call, no sign-out meanwhile', async () => {
    let online!: () => void;
    const deps = { ...fakeDeps(async () => active), waitUntilOnline: vi.fn(() => new Promise<void>((resolve) => (online = resolve))) };
    const result = loadUser(deps);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(deps.fetchAccountInfo).not.toHaveBeenCalled();
    expect(deps.signOut).not.toHaveBeenCalled();
    online();
    await expect(result).resolves.toBe('allow');
    expect(deps.fetchAccountInfo).toHaveBeenCalledOnce();
  });
});
