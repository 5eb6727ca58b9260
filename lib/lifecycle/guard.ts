// The sign-in guard (docs/CLIENT-RULES.md, "Routes and the guard") as pure decisions plus the runner that
// loads the user, its effects injected, so every branch is testable without React. The route decisions live in route-guard.ts
// (light, for the shared session layout); loading the user needs the API, the socket and the stores.
import type { AccountInfo } from '@/lib/contract';
import { fetchAccountInfo } from '@/lib/api/accounts';
import { followUserLanguage } from './user-language';
import { navigate } from '@/lib/navigation';
import { startMessagingSessionSoon } from '@/lib/realtime/session-start';
import { publishUser } from '@/lib/stores/session-store';
import type { GuardResult } from '@/lib/routing/route-guard';
import { signOut } from '@/lib/session/sign-out';


export type LoadDecision = { kind: 'allow'; user: AccountInfo } | { kind: 'sign-out'; to: '/account' };

export type LoadOutcome = { ok: true; info: AccountInfo } | { ok: false; error: unknown };

export function decideAfterLoad(outcome: LoadOutcome): LoadDecision {
  if (outcome.ok && outcome.info.is_active === true) return { kind: 'allow', user: outcome.info };
  return { kind: 'sign-out', to: '/account' };
}

export interface GuardDeps {
  fetchAccountInfo: () => Promise<AccountInfo>;
  /** Hands the user id to the real-time socket's initialisation (with the session around it). */
  initSocket: (id: number) => void;
  publishUser: (user: AccountInfo) => void;
  signOut: () => void;
  navigate: (path: string) => void;
  /** Resolves once the browser has a network (at once when it has one). */
  waitUntilOnline: () => Promise<void>;
}

/**
 * An installed Parley may start with no network (its page comes from the service worker). The
 * user is loaded once the browser is online again: a request that cannot leave the browser is not
 * an answer, and taking it as a failure would sign the person out for being on a train.
 */
function waitUntilOnline(): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine) return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('online', () => resolve(), { once: true }));
}

function publishWithLanguage(user: AccountInfo): void {
  // The user's saved language wins over this browser's locale (user-language.ts).
  followUserLanguage();
  publishUser(user);
}

const defaultDeps: GuardDeps = {
  fetchAccountInfo,
  initSocket: startMessagingSessionSoon,
  publishUser: publishWithLanguage,
  signOut,
  navigate,
  waitUntilOnline,
};

/**
 * With a stored token: loads the current user; an active one gets the socket and is published
 * ('allow'), anything else signs out and goes to /account ('blocked').
 */
export async function loadUser(deps: Partial<GuardDeps> = {}): Promise<GuardResult> {
  const effects: GuardDeps = { ...defaultDeps, ...deps };
  let outcome: LoadOutcome;
  await effects.waitUntilOnline();
  try {
    outcome = { ok: true, info: await effects.fetchAccountInfo() };
  } catch (error) {
    // Already logged by the API client; here it only decides the route.
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
