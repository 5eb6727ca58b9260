// The authorization matrix's server and its callers: an owner, two other people, the owner's
// revoked session, deactivated accounts' live sessions, and what the rows address (a peer's upload,
// the owner's messages, a message between two other people). Shared by the HTTP and Socket.IO files.
import { randomUUID } from 'node:crypto';
import webPush from 'web-push';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Attachment } from '../../lib/contract';
import { directConversationId, insertMessage } from '../../testing/database';
import { DEFAULT_RATE_LIMITS } from '../security/rate-limit-defaults';
import { api, signIn, type SignedInUser } from '../test/helpers';
import { startObservedServer, type ObservedServer } from '../test/observed-server';
import { socketTabs } from '../test/tabs';
import { rawUpload } from '../test/uploads';

export let t: ObservedServer;
/** The caller whose own resources the rows address; `peer` and `third` are other people. */
export let owner: SignedInUser;
export let peer: SignedInUser;
export let third: SignedInUser;
/** A session of the owner's that was logged out. */
export let revokedBearer: string;
/** Two live sessions of a deactivated account: one for logout (which ends it), one for the rest. */
export let inactiveBearer: string;
export let inactiveLogoutBearer: string;
/** A live session of another deactivated account, for account deletion (which erases it). */
export let inactiveDeleteBearer: string;
let inactive: SignedInUser;
export let peerUpload: Attachment;
/** An upload of the owner's no message carries (its deletion row deletes it). */
export let ownerUpload: Attachment;
/** Messages of the owner's conversation (one per change, so no change depends on another's), and one between two other people. */
export let owned: { react: number; edit: number; unsend: number; hide: number };
export let foreignMessageId: number;
/** The owner's conversation with the peer, and the conversation of the peer and the third person. */
export let ownedConversationId: number;
export let foreignConversationId: number;
export const tabs = socketTabs(() => t);

export async function secondSession(user: SignedInUser): Promise<string> {
  const response = await api<{ token: string }>(t.url, '/accounts/authorize', {
    method: 'POST',
    json: { firebase_id: user.account.uid, social_type: 'google', id_token: user.account.idToken },
  });
  if (response.status !== 200) throw new Error(`second session: ${response.status}`);
  return `Bearer ${response.body.token}`;
}

/** Call at the top of a matrix test file: registers the hooks that start the server and sign the callers in, close the tabs after each test, and stop the server. */
export function registerMatrixHooks(): void {
  beforeAll(async () => {
    t = await startObservedServer({
      logLevel: 'warn',
      // The owner opens a socket for each case of each event and emits them within seconds, more
      // than a person's connect and event budgets allow; budgets have their own coverage
      // (rate-limit-coverage.test.ts), the others stay as configured.
      rateLimits: { ...DEFAULT_RATE_LIMITS, connect: null, event: null },
      push: { vapid: { ...webPush.generateVAPIDKeys(), subject: 'mailto:tests@parley.example' }, endpointOrigins: ['http://127.0.0.1'] },
    });
    [owner, peer, third, inactive] = await Promise.all([
      signIn(t.url, 'Owner'),
      signIn(t.url, 'Peer'),
      signIn(t.url, 'Third'),
      signIn(t.url, 'Inactive'),
    ]);
    revokedBearer = await secondSession(owner);
    expect((await api(t.url, '/accounts/logout', { method: 'POST', token: revokedBearer })).status).toBe(204);
    inactiveBearer = inactive.bearer;
    inactiveLogoutBearer = await secondSession(inactive);
    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: inactiveBearer })).status).toBe(204);
    const deleting = await signIn(t.url, 'Inactive, deleting');
    inactiveDeleteBearer = deleting.bearer;
    expect((await api(t.url, '/accounts/deactivate', { method: 'POST', token: inactiveDeleteBearer })).status).toBe(204);
    // A conversation of the owner's, for the rows that act on one (mute, and the changes to its messages).
    const message = async (senderId: number, recipientId: number) =>
      (await insertMessage(t.db, { senderId, recipientId, clientId: randomUUID(), text: 'hello owner' })).message.id;
    owned = {
      react: await message(peer.user.id, owner.user.id),
      edit: await message(owner.user.id, peer.user.id),
      unsend: await message(owner.user.id, peer.user.id),
      hide: await message(peer.user.id, owner.user.id),
    };
    foreignMessageId = await message(peer.user.id, third.user.id);
    ownedConversationId = await directConversationId(t.db, owner.user.id, peer.user.id);
    foreignConversationId = await directConversationId(t.db, peer.user.id, third.user.id);

    const bytes = Buffer.from('peer file');
    const upload = await rawUpload(
      t.url,
      { authorization: peer.bearer, 'x-file-name': 'peer.txt', 'content-type': 'text/plain', 'content-length': bytes.length },
      [bytes],
    );
    peerUpload = JSON.parse(upload.body) as Attachment;
    const ownBytes = Buffer.from('owner file');
    const own = await rawUpload(
      t.url,
      { authorization: owner.bearer, 'x-file-name': 'owner.txt', 'content-type': 'text/plain', 'content-length': ownBytes.length },
      [ownBytes],
    );
    ownerUpload = JSON.parse(own.body) as Attachment;
  }, 60_000);
  afterEach(() => tabs.closeAll());
  afterAll(() => t?.close());
}
