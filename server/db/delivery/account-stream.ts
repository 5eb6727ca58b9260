// What changed for an account since its cursor (docs/design/conversations.md 2.6 and 3.5): its own
// items (account_events, by the account's seq) and which of its conversations moved (heads whose
// `changed_xid` is at or past the cursor's horizon). What `sync_account` answers (socket protocol
// 2's catch-up, before each changed conversation's `sync_conversation`).
import { sql } from 'drizzle-orm';
import { SYNC_CONVERSATIONS_PAGE, type AccountItem, type ConversationMessage, type ConversationSummary } from '../../../lib/contract';
import { ACCOUNT_CURSOR, isAccountCursor } from '../../../lib/contract/schemas';
import { changedConversations, messagesById } from './conversation-summaries';
import type { Db } from '../engine/open-database';
import { rows } from '../engine/raw-rows';

/**
 * Where an account's catch-up stands: its items up to `seq` are applied; every head moved by a
 * transaction below `horizon` (an xid8: a snapshot's xmin) was reported; and, while the changed
 * conversations are read in pages, those up to `afterConversation` were too, and `nextHorizon` is
 * the horizon the run's first page read, the one to move to once its last page is out (0 between
 * runs). A head moved during the run, even one the run already passed, is at or past that
 * horizon, so the next run names it.
 */
export interface AccountCursor {
  seq: number;
  horizon: string;
  afterConversation: number;
  nextHorizon: string;
}

export const formatAccountCursor = ({ seq, horizon, afterConversation, nextHorizon }: AccountCursor) =>
  `${seq}.${horizon}.${afterConversation}.${nextHorizon}`;

/** A cursor as formatAccountCursor wrote it (the payload's schema checked it); null otherwise. */
export function parseAccountCursor(text: string): AccountCursor | null {
  const parts = ACCOUNT_CURSOR.exec(text);
  if (!parts || !isAccountCursor(text)) return null;
  return { seq: Number(parts[1]), horizon: parts[2]!, afterConversation: Number(parts[3]), nextHorizon: parts[4]! };
}

export interface AccountPage {
  items: AccountItem[];
  conversations: ConversationSummary[];
  /** Moved, but no longer in the list (AccountSyncResult.removed). */
  removed: number[];
  cursor: AccountCursor;
  hasMore: boolean;
}

/**
 * The account's seq and a horizon, read together: every transaction below the snapshot's xmin had
 * finished when this statement began, so what it wrote is visible now; one still running has an
 * id at or past it and is reported next time. Null for no such active account.
 */
async function now(db: Db, userId: number): Promise<{ seq: number; horizon: string } | null> {
  const [row] = await rows<{ account_seq: string | number; horizon: string }>(
    db,
    sql`select account_seq, pg_snapshot_xmin(pg_current_snapshot())::text as horizon from users where id = ${userId} and is_active`,
  );
  return row ? { seq: Number(row.account_seq), horizon: row.horizon } : null;
}

/**
 * A cursor from now, as `sync_account` without one answers it: GET /api/c reads it
 * before its page, so everything up to it is in the page and `sync_account` goes on from there.
 * Null for no such active account.
 */
export async function accountCursorNow(db: Db, userId: number): Promise<string | null> {
  const current = await now(db, userId);
  return current ? formatAccountCursor({ ...current, afterConversation: 0, nextHorizon: '0' }) : null;
}

type ItemRow = { seq: string | number; conversation_id: string | number; kind: string; state: Record<string, unknown> };

/** The account's items in (after, end], at most `limit` + 1, by seq: one range scan of account_events' key. */
async function itemsAfter(db: Db, userId: number, after: number, end: number, limit: number): Promise<AccountItem[]> {
  const found = await rows<ItemRow>(
    db,
    sql`select seq, conversation_id, kind, state from account_events
      where user_id = ${userId} and seq > ${after} and seq <= ${end} order by seq limit ${limit + 1}`,
  );
  const previews = await messagesById(
    db,
    found.flatMap((row) => (row.kind === 'hide' && row.state.preview_id != null ? [Number(row.state.preview_id)] : [])),
  );
  return found.map((row) => toAccountItem(row, previews));
}

/**
 * An account_events row as the item it records, read back or just written (the change batch
 * pushes what it wrote): `previews` holds each hide's preview by id, as every member sees it.
 */
export function toAccountItem(row: ItemRow, previews: ReadonlyMap<number, ConversationMessage>): AccountItem {
  const base = { seq: Number(row.seq), conversation_id: Number(row.conversation_id) };
  const { state } = row;
  switch (row.kind) {
    case 'read':
      return { ...base, kind: 'read', read_seq: Number(state.read_seq), unread_count: Number(state.unread_count) };
    case 'hide':
      return {
        ...base,
        kind: 'hide',
        message_id: Number(state.message_id),
        preview: state.preview_id == null ? null : (previews.get(Number(state.preview_id)) ?? null),
        ...(state.unread_count === undefined ? {} : { unread_count: Number(state.unread_count) }),
      };
    case 'muted':
      return { ...base, kind: 'muted', muted: state.muted === true };
    default:
      // Joins, removals and leaving come with groups (design step 10), and with their shapes.
      throw new Error(`account item of kind ${row.kind} has no shape yet`);
  }
}

/**
 * What `sync_account` answers. Without a cursor: nothing but one from now (a client takes it before
 * it reads its list, so nothing between the two is missed). With one: the account's items after
 * its seq (at most `limit`) and its conversations changed since its horizon, a page at a time;
 * the horizon moves, to the one the run's first page read, only once the last page is out. Null for no such
 * active account.
 */
export async function syncAccount(db: Db, userId: number, cursor: AccountCursor | null, limit: number): Promise<AccountPage | null> {
  const current = await now(db, userId);
  if (!current) return null;
  if (!cursor) return { items: [], conversations: [], removed: [], cursor: { ...current, afterConversation: 0, nextHorizon: '0' }, hasMore: false };
  const [items, changed] = await Promise.all([
    itemsAfter(db, userId, cursor.seq, current.seq, limit),
    changedConversations(db, userId, cursor.horizon, cursor.afterConversation),
  ]);
  const moreItems = items.length > limit;
  const moreConversations = changed.length > SYNC_CONVERSATIONS_PAGE;
  const pageItems = items.slice(0, limit);
  const page = changed.slice(0, SYNC_CONVERSATIONS_PAGE);
  const idOf = (row: (typeof page)[number]) => ('removed' in row ? row.removed : row.conversation_id);
  // A run of pages starts where no page mark is; its first page's horizon is where it ends.
  const runHorizon = cursor.afterConversation > 0 ? cursor.nextHorizon : current.horizon;
  return {
    items: pageItems,
    conversations: page.flatMap((row) => ('removed' in row ? [] : [row])),
    removed: page.flatMap((row) => ('removed' in row ? [row.removed] : [])),
    cursor: {
      seq: moreItems ? pageItems[pageItems.length - 1]!.seq : Math.max(current.seq, cursor.seq),
      ...(moreConversations
        ? { horizon: cursor.horizon, afterConversation: idOf(page[page.length - 1]!), nextHorizon: runHorizon }
        : { horizon: runHorizon, afterConversation: 0, nextHorizon: '0' }),
    },
    hasMore: moreItems || moreConversations,
  };
}
