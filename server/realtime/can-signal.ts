import { sql } from 'drizzle-orm';
import type { Db } from '../db/engine/open-database';
import { rows } from '../db/engine/raw-rows';
import { createLane, type Lane } from '../db/engine/lane';
import { canMessage } from '../db/safety-rules';

/**
 * A signal's answer: refused (false), or allowed, with the direct conversation of the two as the
 * recipient has it (null: none yet), which the sockets are told the signal belongs to.
 */
export type SignalVerdict = false | { conversationId: number | null };

/**
 * May `fromId` send `toId` an ephemeral signal (typing)? Exactly when a message from one to the
 * other would be accepted now (safety-rules.ts's canMessage: `toId` is active, neither blocked the
 * other, and toId's "who can message me" lets fromId in). A signal refused here is dropped without
 * a word, so the sender cannot tell a refusal from a delivery.
 */
async function canSignal(db: Db, fromId: number, toId: number): Promise<SignalVerdict> {
  if (fromId === toId) return false;
  const [row] = await rows<{ allowed: boolean; conversation_id: string | number | null }>(
    db,
    sql`select ${canMessage(fromId, sql.raw('ru'), sql`ru.id`)} as allowed,
      (select conversation_id from account_conversations where user_id = ru.id and peer_id = ${fromId}) as conversation_id
      from users ru where ru.id = ${toId}`,
  );
  if (row?.allowed !== true) return false;
  return { conversationId: row.conversation_id === null ? null : Number(row.conversation_id) };
}

/** How long an answer of canSignal is reused for the same two people. */
const SIGNAL_CHECK_TTL_MS = 10_000;
/** Pairs remembered per process at most; the oldest answer goes first. */
const SIGNAL_CHECK_MAX_PAIRS = 20_000;

export interface SignalCheckOptions {
  /** Where the queries wait their turn (create-realtime.ts: the one lane of live signals). */
  lane?: Lane;
  ttlMs?: number;
  maxPairs?: number;
  now?: () => number;
}

/**
 * canSignal with a short memory per pair. A typing person sends a signal every few seconds, each
 * one checked: without it every signal is a query on the database the message writer uses, and
 * typing slows sending. The price: a block or a new "who can message me" stops someone's typing
 * signals only once their answer expires (SIGNAL_CHECK_TTL_MS, a few signals later; the
 * blocker's app drops them meanwhile). Messages are always checked afresh. The queries go through
 * a lane, one at a time, never ahead of more than one message batch (db/lane.ts).
 */
export function createSignalCheck(db: Db, { lane = createLane(), ttlMs = SIGNAL_CHECK_TTL_MS, maxPairs = SIGNAL_CHECK_MAX_PAIRS, now = Date.now }: SignalCheckOptions = {}) {
  // Insertion order is age order: an answer is re-inserted when it is asked again after expiring.
  const answers = new Map<string, { allowed: Promise<SignalVerdict>; expires: number }>();

  return (fromId: number, toId: number): Promise<SignalVerdict> => {
    const key = `${fromId}:${toId}`;
    const known = answers.get(key);
    if (known && known.expires > now()) return known.allowed;
    answers.delete(key);
    const allowed = lane.run(() => canSignal(db, fromId, toId));
    const answer = { allowed, expires: now() + ttlMs };
    // Not remembered: a failed check, and a signal allowed before the two have a conversation,
    // which their first message may begin at any moment (its typing would be dropped meanwhile).
    // The next signal asks again.
    const forget = () => {
      if (answers.get(key) === answer) answers.delete(key);
    };
    allowed.then((verdict) => verdict && verdict.conversationId === null && forget(), forget);
    answers.set(key, answer);
    if (answers.size > maxPairs) answers.delete(answers.keys().next().value!);
    return allowed;
  };
}

export type SignalCheck = ReturnType<typeof createSignalCheck>;
