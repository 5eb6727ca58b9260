// The people, conversation and settings endpoints as the real client sends them.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Page, User, UserSummary } from '@/lib/contract';
import { updateSettings } from './accounts';
import { listConversations, listMessages } from './conversations';
import { getProfile, searchUsers } from './users';

let requests: Request[];
let bodies: string[];

function respondWith(body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      requests.push(input);
      bodies.push(await input.text());
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}

function sent(index = 0): string {
  const request = requests[index];
  if (!request) throw new Error('no request was sent');
  const url = new URL(request.url);
  return `${request.method} ${url.pathname}${url.search}`;
}

const emptyPage: Page<UserSummary> = { results: [], next_cursor: null };

describe('people and messaging api', () => {
  beforeEach(() => {
    localStorage.clear();
    requests = [];
    bodies = [];
    return () => {
      vi.unstubAllGlobals();
    };
  });

  it('searchUsers GETs users/search with the query and the default limit', async () => {
    respondWith(emptyPage);
    await expect(searchUsers('ada l')).resolves.toEqual(emptyPage);
    expect(sent()).toBe('GET /api/users/search?q=ada+l&limit=20');
  });

  it('searchUsers passes the abort signal on, so a newer query can cancel it', async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (input: Request) =>
          new Promise((_, reject) => {
            // Like fetch: an already aborted signal rejects at once, a later abort when it comes.
            if (input.signal.aborted) reject(input.signal.reason);
            input.signal.addEventListener('abort', () => reject(input.signal.reason));
          }),
      ),
    );
    const pending = searchUsers('ada', { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('getProfile uses the user id', async () => {
    respondWith(emptyPage);
    await getProfile(5);
    expect(sent()).toBe('GET /api/users/5');
  });

  it('listConversations and listMessages page by cursor', async () => {
    respondWith({ results: [], next_cursor: null, account_cursor: '0.1.0.0' });
    await listConversations();
    await listConversations('c2');
    // A thread is asked for by its conversation's id, not by the other person's.
    await listMessages(1009);
    await listMessages(1009, 'older');
    expect(requests.map((_, index) => sent(index))).toEqual([
      'GET /api/c',
      'GET /api/c?cursor=c2',
      'GET /api/c/1009/messages?limit=50',
      'GET /api/c/1009/messages?cursor=older&limit=50',
    ]);
  });

  it('updateSettings PATCHes the language and returns the user', async () => {
    const user: User = { id: 7, username: 'ada', email: null, avatar: null, language: 'fr', is_active: true, message_policy: 'everyone', show_presence: true, read_receipts: true, notification_preview: 'text', notification_sound: true };
    respondWith(user);
    await expect(updateSettings({ language: 'fr' })).resolves.toEqual(user);
    expect(sent()).toBe('PATCH /api/accounts/settings');
    expect(JSON.parse(bodies[0] ?? '')).toEqual({ language: 'fr' });
  });
});
