import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { ClientToServerEvents, ErrorBody } from '../../lib/contract';
import { formatIssues, unstorableTextIssues } from '../validation';
import { errorAck, splitArgs } from './ack';
import { countSocketRefusal } from './refusals';
import { rooms, type RealtimeSocket } from './types';

/** What a handler decided: an error ack, or data to ack followed by its broadcasts. */
export type Outcome<T> = { error: ErrorBody } | { data: T; broadcast?: () => void };

export const refuse = (error: ErrorBody): Outcome<never> => ({ error });
export const fieldError = (message: string): Outcome<never> => refuse({ non_field_errors: [message] });
/** Final, and the same for a conversation that does not exist and one the caller is not in. */
export const conversationNotFound = fieldError('conversation_id: Conversation not found.');

type AckOf<Events, E extends keyof Events> = Events[E] extends (payload: never, ack?: (response: infer R) => void) => void
  ? R extends { data: infer T }
    ? T
    : never
  : never;

/** What an event's ack carries. */
type AckData<E extends keyof ClientToServerEvents> = AckOf<ClientToServerEvents, E>;

/**
 * The shape every messaging event shares: only after init (the socket is in its user room),
 * validate, run (persist), ack, then broadcast. Bad input and failures become error acks; the
 * handler never throws into Socket.IO and never leaves the ack hanging. `log` is the socket's
 * (socket and user ids bound): refusals are client faults, counted into the refusal summary
 * (logging/refusal-log.ts) and logged at debug; only a failure of our own carries the error.
 */
export function onEvent<E extends keyof ClientToServerEvents, S extends z.ZodType>(
  socket: RealtimeSocket,
  log: FastifyBaseLogger,
  event: E,
  schema: S,
  run: (payload: z.output<S>, userId: number) => Promise<Outcome<AckData<E>>>,
): void {
  const listener = async (...args: unknown[]) => {
    const { payload, ack } = splitArgs(args);
    const refused = (error: ErrorBody) => {
      log.debug({ event, error }, 'socket event refused');
      countSocketRefusal(socket, `refused ${event}`, 'msg' in error ? error.msg : error.non_field_errors.join(' '));
      ack(errorAck(error));
    };
    const { userId } = socket.data;
    if (!socket.rooms.has(rooms.inbox(userId))) return refused({ msg: 'Send init before other events.' });
    const parsed = schema.safeParse(payload);
    if (!parsed.success) return refused({ non_field_errors: formatIssues(parsed.error.issues) });
    // Valid JSON strings Postgres cannot store (U+0000, lone surrogates): refused, not a 500.
    const unstorable = unstorableTextIssues(parsed.data);
    if (unstorable.length > 0) return refused({ non_field_errors: unstorable });
    let outcome: Outcome<AckData<E>>;
    try {
      outcome = await run(parsed.data, userId);
    } catch (error) {
      log.error({ err: error, event }, 'socket event failed');
      return ack(errorAck({ msg: 'Internal server error' }));
    }
    if ('error' in outcome) return refused(outcome.error);
    log.debug({ event }, 'socket event handled');
    ack({ data: outcome.data });
    outcome.broadcast?.();
  };
  // The declared listener types describe well-behaved clients; this one checks everything itself.
  socket.on(event, listener as never);
}
