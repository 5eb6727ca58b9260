// What a node says while it sheds load, over HTTP (http/load-shedding.ts) and to socket events
// (realtime/socket-rate-limit.ts) alike.

/** The answer to shed work: `msg`, so the client's outbox retries a shed send. */
export const SHED_MSG = 'The server is busy; try again shortly.';
/** Seconds a shed HTTP caller is asked to wait: a couple of the samples the decision is made on. */
export const SHED_RETRY_AFTER_SECONDS = 2;
