// The Parley half of making a test person: the deployment's own sign-in endpoint, called with a
// Firebase ID token exactly as the pages call it, so the server's real checks run.
import type { AuthorizeRequest, AuthorizeResponse } from '../../../lib/contract';
import type { Identity } from './firebase-identities';

export type Authorized = { status: 'ok'; token: string; userId: number; locale: string } | { status: 'deactivated' };

export class ParleyAccounts {
  constructor(private readonly baseURL: string) {}

  /** POST /api/accounts/authorize; a deactivated account (403) is an answer, not an error. */
  async authorize(identity: Identity): Promise<Authorized> {
    const body: AuthorizeRequest = {
      username: identity.name,
      email: identity.email,
      firebase_id: identity.uid,
      // The schema knows the providers people use; test users are made as if through Google.
      social_type: 'google',
      id_token: identity.idToken,
    };
    const response = await this.post('/api/accounts/authorize', { body });
    if (response.status === 403) return { status: 'deactivated' };
    if (response.status !== 200) {
      throw new Error(
        `${this.baseURL} refused the sign-in of ${identity.email} (${response.status} ${await response.text()}). ` +
          'Does the deployment trust the same Firebase project (or emulator) as this run? docs/TESTING.md says what it needs.',
      );
    }
    const { token, user } = (await response.json()) as AuthorizeResponse;
    return { status: 'ok', token: `Bearer ${token}`, userId: user.id, locale: user.language };
  }

  /**
   * Deletes the account (`DELETE /api/accounts/me`): the person's profile, sessions and uploads
   * go, and what they wrote reads as from a deleted account to those who keep the conversation.
   */
  async close(token: string): Promise<void> {
    const response = await fetch(`${this.baseURL}/api/accounts/me`, { method: 'DELETE', headers: { authorization: token } });
    if (response.status !== 204) {
      throw new Error(`${this.baseURL} did not delete a test account (${response.status} ${await response.text()}).`);
    }
  }

  private post(path: string, options: { body?: unknown; token?: string }): Promise<Response> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = options.token;
    return fetch(`${this.baseURL}${path}`, {
      method: 'POST',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  }
}
