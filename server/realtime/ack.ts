import type { Ack, ErrorBody } from '../../lib/contract';

type AckFn = (response: Ack<unknown>) => void;

/**
 * Handlers receive whatever the client emitted: the ack may be missing, or sit in the payload's
 * place when the client sent no payload. Never trust the declared event types at runtime.
 */
export function splitArgs(args: unknown[]): { payload: unknown; ack: AckFn } {
  const last = args[args.length - 1];
  const ack = typeof last === 'function' ? (last as AckFn) : () => {};
  const payload = typeof args[0] === 'function' ? undefined : args[0];
  return { payload, ack };
}

export const errorAck = (error: ErrorBody): Ack<never> => ({ error });

/** What a socket event or request gets once a graceful shutdown has begun (in-flight.ts). */
export const RESTARTING_MSG = 'The server is restarting; try again.';
