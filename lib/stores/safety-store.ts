// Safety: the people the user blocked, who may message them, muted conversations, reports, and
// the account's own data (download, deletion). Changes made on another device arrive as
// `safety_changed` (applyChange); the server's unread total follows a block by `message_count`.
import { create } from 'zustand';
import { updateSettings } from '@/lib/api/accounts';
import { errorMessage } from '@/lib/contract/error-message';
import { blockUser, deleteAccount, downloadAccountData, fileReport, listBlocks, setConversationMuted, unblockUser, type DownloadedFile } from '@/lib/api/safety';
import type { BlockedUser, MessagePolicy, ReportReason, SafetyChange } from '@/lib/contract';
import { navigate } from '@/lib/navigation';
import { signOut } from '@/lib/session/sign-out';
import { useConversationsStore } from './conversations-store';
import { usePeopleStore } from './people-store';
import { usePresenceStore } from './presence-store';
import { useSessionStore } from './session-store';

type BlockListStatus = 'idle' | 'loading' | 'ready' | 'error';

/** What an action that may fail answers its component: done, or the reason (the HTTP error's message, docs/CLIENT-RULES.md). */
type ActionResult = { ok: true } | { ok: false; error: string };

export type ReportTarget = { messageId: number } | { userId: number };

interface SafetyState {
  /** The people the user blocked, newest first (GET /api/blocks). */
  blocked: BlockedUser[];
  blockedStatus: BlockListStatus;
  /** Blocks and unblocks waiting for the server, by person. */
  pending: Record<number, boolean>;
}

interface SafetyActions {
  loadBlocked: () => Promise<void>;
  /** Blocks someone: their conversation leaves the list at once; the server's total follows. */
  block: (user: Pick<BlockedUser, 'id' | 'username' | 'avatar'>) => Promise<ActionResult>;
  unblock: (userId: number) => Promise<ActionResult>;
  /** Optimistic: the row shows it at once, and goes back if the server refuses. */
  setMuted: (peerId: number, muted: boolean) => Promise<ActionResult>;
  report: (target: ReportTarget, reason: ReportReason, details: string) => Promise<ActionResult>;
  setMessagePolicy: (policy: MessagePolicy) => Promise<ActionResult>;
  /** `safety_changed` from any of the user's devices (this one included: applying twice is harmless). */
  applyChange: (change: SafetyChange) => void;
  downloadData: () => Promise<({ ok: true } & DownloadedFile) | { ok: false; error: string }>;
  /** Deletes the account; on success the session is over: signed out, back to the sign-in page. */
  deleteAccount: () => Promise<ActionResult>;
  /** Sign-out: the lists forgotten; answers to requests made before are dropped. */
  reset: () => void;
}

export type SafetyStore = SafetyState & SafetyActions;

const initialSafetyState: SafetyState = { blocked: [], blockedStatus: 'idle', pending: {} };

const failed = (error: unknown): { ok: false; error: string } => ({ ok: false, error: errorMessage(error) });

export const useSafetyStore = create<SafetyStore>()((set, get) => {
  // Bumped by reset (sign-out), so answers to requests made before it are dropped.
  let generation = 0;

  function setPending(userId: number, on: boolean): void {
    set((state) => {
      const pending = { ...state.pending };
      if (on) pending[userId] = true;
      else delete pending[userId];
      return { pending };
    });
  }

  const listed = (userId: number) => get().blocked.some((known) => known.id === userId);

  function applyBlock(userId: number, blocked: boolean, user?: Pick<BlockedUser, 'id' | 'username' | 'avatar'>): void {
    usePeopleStore.getState().applyBlocked(userId, blocked);
    if (blocked) {
      useConversationsStore.getState().removeConversation(userId);
      // Their status ends with the block, at once (the server stops telling it too).
      usePresenceStore.getState().apply({ user_id: userId, online: false, last_seen_at: null });
      if (user && !listed(userId)) {
        set((state) => ({ blocked: [{ ...user, blocked_at: new Date().toISOString() }, ...state.blocked] }));
      }
    } else {
      set((state) => ({ blocked: state.blocked.filter((known) => known.id !== userId) }));
      // The conversation (and its badge) comes back with the server's list.
      void useConversationsStore.getState().loadConversations();
    }
  }

  return {
    ...initialSafetyState,

    async loadBlocked() {
      const started = generation;
      set({ blockedStatus: 'loading' });
      try {
        const page = await listBlocks();
        if (started !== generation) return;
        set({ blocked: page.results, blockedStatus: 'ready' });
      } catch {
        if (started === generation) set({ blockedStatus: 'error' });
      }
    },

    async block(user) {
      setPending(user.id, true);
      try {
        await blockUser(user.id);
        applyBlock(user.id, true, user);
        return { ok: true };
      } catch (error) {
        return failed(error);
      } finally {
        setPending(user.id, false);
      }
    },

    async unblock(userId) {
      setPending(userId, true);
      try {
        await unblockUser(userId);
        applyBlock(userId, false);
        return { ok: true };
      } catch (error) {
        return failed(error);
      } finally {
        setPending(userId, false);
      }
    },

    async setMuted(peerId, muted) {
      const conversations = useConversationsStore.getState();
      conversations.setMuted(peerId, muted);
      try {
        await setConversationMuted(peerId, muted);
        return { ok: true };
      } catch (error) {
        useConversationsStore.getState().setMuted(peerId, !muted);
        return failed(error);
      }
    },

    async report(target, reason, details) {
      try {
        const trimmed = details.trim();
        await fileReport({ ...('messageId' in target ? { message_id: target.messageId } : { user_id: target.userId }), reason, details: trimmed || null });
        return { ok: true };
      } catch (error) {
        return failed(error);
      }
    },

    async setMessagePolicy(policy) {
      try {
        const user = await updateSettings({ message_policy: policy });
        useSessionStore.getState().publishUser(user);
        return { ok: true };
      } catch (error) {
        return failed(error);
      }
    },

    applyChange(change) {
      if (change.type === 'block') {
        applyBlock(change.user_id, change.blocked);
        // Blocked elsewhere: the list shows them once read again (the settings screen reads it when opened).
        if (change.blocked && !listed(change.user_id) && get().blockedStatus === 'ready') {
          void get().loadBlocked();
        }
      } else if (change.type === 'mute') {
        useConversationsStore.getState().setMuted(change.user_id, change.muted);
      } else {
        // The published user carries the settings: presence subscriptions and the settings
        // screen follow it.
        const user = useSessionStore.getState().user;
        if (!user) return;
        const settings =
          change.type === 'message_policy'
            ? { message_policy: change.message_policy }
            : { show_presence: change.show_presence, read_receipts: change.read_receipts };
        useSessionStore.getState().publishUser({ ...user, ...settings });
      }
    },

    async downloadData() {
      try {
        return { ok: true, ...(await downloadAccountData()) };
      } catch (error) {
        return failed(error);
      }
    },

    async deleteAccount() {
      try {
        await deleteAccount();
      } catch (error) {
        return failed(error);
      }
      // The server ended every session of the account: sign out here, as a 401 would.
      signOut();
      navigate('/account');
      return { ok: true };
    },

    reset() {
      generation += 1;
      set(initialSafetyState);
    },
  };
});

export const useBlockPending = (userId: number) => useSafetyStore((state) => state.pending[userId] ?? false);

/** Has the user blocked this person? Their profile says so, or the block list (as far as read) has them. */
export function hasBlocked(userId: number): boolean {
  return usePeopleStore.getState().profiles[userId]?.blocked === true || useSafetyStore.getState().blocked.some((known) => known.id === userId);
}
