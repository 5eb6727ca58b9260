// The one HTTP client: token header, error messages, 401 sign-out (docs/CLIENT-RULES.md, "HTTP").
// Callers only await data; every failure arrives here first.
import ky, { type BeforeErrorHook, type BeforeRequestHook, type KyInstance, type Options } from 'ky';
import { publicConfig } from '@/lib/config/public';
import { navigate } from '@/lib/navigation';
import { signOut } from '@/lib/session/sign-out';
import { getStoredToken } from '@/lib/session/storage';
import { errorMessage } from '../contract/error-message';
import { takeEarlyResponse } from './early-requests';

/** /accounts, not /account: the rule says so; it falls through to /main, whose guard sends on to /account. */
const UNAUTHORIZED_REDIRECT = '/accounts';

/**
 * The 401 rule, for every HTTP request (this client, uploads): the token is no longer
 * accepted, so sign out and go to the sign-in page.
 */
export function handleUnauthorized(): void {
  signOut();
  navigate(UNAUTHORIZED_REDIRECT);
}

/** Node's fetch (SSR, tests) cannot resolve a relative URL, so anchor the API at the page origin. */
export function resolveApiPrefix(apiUrl: string): string {
  if (typeof window === 'undefined') return apiUrl;
  return new URL(apiUrl, window.location.origin).href;
}

const attachToken: BeforeRequestHook = ({ request }) => {
  const token = getStoredToken();
  // The stored value already reads "Bearer <token>".
  if (token) request.headers.set('Authorization', token);
};

const handleError: BeforeErrorHook = ({ error, request }) => {
  // A request its caller cancelled (a search superseded by newer typing) has not failed: nothing
  // to report, and no response to map.
  if (error.name === 'AbortError' || request.signal.aborted) return error;
  // Keep the ky error (status, response, data stay readable); only its message follows the rule's order.
  error.message = errorMessage(error);
  console.error(error);
  if ('response' in error && (error.response as Response | undefined)?.status === 401) handleUnauthorized();
  return error;
};

export function createApiClient(overrides: Options = {}): KyInstance {
  const prefix = String(overrides.prefix ?? resolveApiPrefix(publicConfig.apiUrl));
  return ky.create({
    prefix,
    // The main area's first requests may already be under way, started by the page's own script
    // (early-requests.ts): taken over here, after the hooks, so they apply to it as to any other.
    fetch: (input, init) => (input instanceof Request ? takeEarlyResponse(input, prefix) : null) ?? globalThis.fetch(input, init),
    retry: {
      // POST is never replayed (sign-in, send, logout are not idempotent); 401 is not listed, so a
      // rejected token is never retried.
      limit: 2,
      methods: ['get', 'head', 'options', 'put', 'delete'],
      statusCodes: [408, 429, 500, 502, 503, 504],
    },
    hooks: { beforeRequest: [attachToken], beforeError: [handleError] },
    ...overrides,
  });
}

export const api: KyInstance = createApiClient();
