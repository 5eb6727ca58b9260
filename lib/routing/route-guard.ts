// The sign-in guard's route decisions (docs/CLIENT-RULES.md), free of the API client, the socket and the
// stores: the session layout runs them on both areas, the sign-in page included, whose first load
// must stay light. Loading the user (guard.ts) belongs to the main area's page.
import { navigate } from '@/lib/navigation';
import { getStoredToken } from '@/lib/session/storage';

export type Area = 'account' | 'main';
export type GuardResult = 'allow' | 'blocked';

export type RouteDecision =
  | { kind: 'allow' }
  | { kind: 'redirect'; to: '/main' | '/account' }
  | { kind: 'load-user' };

/** Which guarded area a pathname (or an area name) belongs to: /account and below, or main. */
export function areaOf(route: string): Area {
  return route === 'account' || route === '/account' || route.startsWith('/account/') ? 'account' : 'main';
}

export function decideRoute(route: string, hasToken: boolean): RouteDecision {
  if (areaOf(route) === 'account') return hasToken ? { kind: 'redirect', to: '/main' } : { kind: 'allow' };
  return hasToken ? { kind: 'load-user' } : { kind: 'redirect', to: '/account' };
}

export interface RouteGuardDeps {
  getStoredToken: () => string | null;
  navigate: (path: string) => void;
}

/**
 * The decision from the stored token alone, redirect performed: 'load-user' means the route
 * may be shown only once the current user is loaded (loadUser in guard.ts, run by the main area's gate).
 */
export function runRouteGuard(route: string, deps: Partial<RouteGuardDeps> = {}): GuardResult | 'load-user' {
  const effects: RouteGuardDeps = { getStoredToken, navigate, ...deps };
  const decision = decideRoute(route, effects.getStoredToken() !== null);
  if (decision.kind === 'redirect') {
    effects.navigate(decision.to);
    return 'blocked';
  }
  return decision.kind;
}
