import { MAX_MESSAGE_LENGTH } from '../../lib/contract';

// The heaviest legitimate socket packet is a `send` of MAX_MESSAGE_LENGTH UTF-16 units, each
// JSON-escaped as \uXXXX (6 bytes: lone surrogates, control characters), plus its envelope
// (event name, client_id, ids, attachment id: well under 4 KiB).
const LARGEST_SEND_BYTES = MAX_MESSAGE_LENGTH * 6 + 4 * 1024;

/**
 * Socket.IO's maxHttpBufferSize: twice the largest `send`, rounded up to a power of two (64 KiB).
 * A bigger WebSocket frame or polling body closes that connection; nothing is buffered past it.
 */
export const MAX_SOCKET_PAYLOAD_BYTES = 2 ** Math.ceil(Math.log2(2 * LARGEST_SEND_BYTES));

/**
 * Fastify's bodyLimit for JSON bodies. The largest is authorize's: its schema's maxima (ID token
 * 8192, avatar URL 2048, a few short fields) add up to under 11 KiB of the ASCII they really are.
 * Uploads stream raw under their own route limit (MAX_UPLOAD_BYTES).
 */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
