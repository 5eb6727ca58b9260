// The sign-in guard (SPEC §2, §4) as pure decisions plus one runner with injected effects,
// so every branch is testable without React.
import type { AccountInfo } from '@/lib/contract';
import { fetchAccountInfo } from '@/lib/api/accounts';
import { navigate } from '@/lib/navigation';
import { initSocket } from '@/lib/socket/socket-service';
import { publishUser } from '@/lib/stores/session-store';
import { signOut } from './sign-out';
import { getStoredToken } from './storage';

export type Area = 'account' | 'main';
export type GuardResult = 'allow' | 'blocked';

export type RouteDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: '/main' | '/account' }
  | { kind: 'load-user' };

export type LoadDecision = { kind: 'allow'; user: AccountInfo } | { kind: 'sign-out'; to: '/account' };

export type LoadOutcome = { ok: true; info: AccountInfo } | { ok: false; error: unknown };

/** Which guarded area a pathname (or an area name) belongs to: /account and below, or main. */
export function areaOf(route: string): Area {
  return route === 'account' || route === '/account' || route.startsWith('/account/') ? 'account' : 'main';
}

export function decideRoute(route: string, hasToken: boolean): RouteDecision {
  if (areaOf(route) === 'account') return hasToken ? { kind: 'redirect', to: '/main' } : { kind: 'allow' };
  return hasToken ? { kind: 'load-user' } : { kind: 'redirect', to: '/account' };
}

export function decideAfterLoad(outcome: LoadOutcome): LoadDecision {
  if (outcome.ok && outcome.info.is_active === true) return { kind: 'allow', user: outcome.info };
  return { kind: 'sign-out', to: '/account' };
}

export interface GuardDeps {
  getStoredToken: () => string | null;
  fetchAccountInfo: () => Promise<AccountInfo>;
  initSocket: (id: number) => void;
  publishUser: (user: AccountInfo) => void;
  signOut: () => void;
  navigate: (path: string) => void;
}

const defaultDeps: GuardDeps = { getStoredToken, fetchAccountInfo, initSocket, publishUser, signOut, navigate };

/**
 * Decides and performs the guard for a pathname or area. The caller renders the route only on
 * 'allow', so a blocked route (the account screen while signed in, say) never renders.
 */
export async function runGuard(route: string, deps: Partial<GuardDeps> = {}): Promise<GuardResult> {
  const effects: GuardDeps = { ...defaultDeps, ...deps };
  const decision = decideRoute(route, effects.getStoredToken() !== null);
  if (decision.kind === 'allow') return 'allow';
  if (decision.kind === 'redirect') {
    effects.navigate(decision.to);
    return 'blocked';
  }

  let outcome: LoadOutcome;
  try {
    outcome = { ok: true, info: await effects.fetchAccountInfo() };
  } catch (error) {
    // Already logged by the API client (SPEC §8); here it only decides the route.
    outcome = { ok: false, error };
  }
  const after = decideAfterLoad(outcome);
  if (after.kind === 'sign-out') {
    effects.signOut();
    effects.navigate(after.to);
    return 'blocked';
  }
  effects.initSocket(after.user.id);
  effects.publishUser(after.user);
  return 'allow';
}
