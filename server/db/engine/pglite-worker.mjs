// PGlite in a worker thread, serving the Postgres wire protocol on a Unix socket, so the server
// talks to it through node-postgres exactly as it talks to Postgres, and PGlite's WebAssembly runs
// beside the event loop instead of on it (docs/DECISIONS.md, "PGlite in a worker thread").
//
// Plain JavaScript on purpose: a worker thread is started from a file, and this one must load the
// same way from the sources (tsx, vitest) and from the production bundle, which gets a copy of it
// (scripts/build-server.mjs). Started by pglite-host.ts, which is the only thing that talks to it:
// workerData { dataDir: string | null, socketPath, slowMs }, then messages { type: 'ready' },
// { type: 'failed', message } and { type: 'slow', ms, statements } from here, and { type: 'close' }
// to here.
import { unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** @type {{ dataDir: string | null, socketPath: string, slowMs: number }} */
const { dataDir, socketPath, slowMs } = workerData;
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

// The contrib extensions search uses (migration 0015 creates them): PGlite ships them apart, and
// a database can only create an extension whose files were loaded with it.
const db = await PGlite.create(dataDir ?? undefined, { extensions: { pg_trgm, unaccent } }).catch((error) => {
  fail(new Error(`could not open ${dataDir ?? 'a database in memory'}: ${error?.message ?? error}`));
  throw error;
});

// One statement stream at a time reaches PGlite. A connection inside a transaction keeps PGlite to
// itself until it ends it; the others' messages wait in the queue meanwhile.
const RESET = Symbol('reset the session');
const ROLLBACK = Symbol('roll back a departed client');
/** @type {{ connection: Connection, messages: Buffer | typeof RESET | typeof ROLLBACK }[]} */
const queue = [];
/** @type {Set<Connection>} */
const open = new Set();
/** @type {Connection | null} */
let inTransaction = null;
let running = false;

async function rollback() {
  await db.exec('rollback');
  inTransaction = null;
}

async function runQueue() {
  if (running) return;
  running = true;
  try {
    for (;;) {
      const index = inTransaction ? queue.findIndex((item) => item.connection === inTransaction) : 0;
      if (index < 0 || queue.length === 0) break;
      const [{ connection, messages }] = queue.splice(index, 1);
      if (messages === ROLLBACK) {
        // Only the transaction of the client that went away, never one another client opened since.
        if (inTransaction === connection) await rollback();
        continue;
      }
      if (connection.closed) continue;
      if (messages === RESET) {
        await db.exec('discard all');
        continue;
      }
      const started = performance.now();
      const reply = await db.execProtocolRaw(messages);
      const ms = performance.now() - started;
      // Everything else waited that long: say which statements, never their values.
      if (ms >= slowMs) port.postMessage({ type: 'slow', ms: Math.round(ms), statements: statementKinds(messages) });
      inTransaction = db.isInTransaction() ? connection : null;
      // Gone while its statement ran, inside a transaction: nobody will ever end it.
      if (inTransaction === connection && connection.closed) await rollback();
      else if (reply.length > 0) connection.socket.write(reply);
    }
  } finally {
    running = false;
  }
}

const QUERY = 0x51; // 'Q': a simple query, the scripts' protocol
const PARSE = 0x50; // 'P': the extended protocol's statement
const VERBS = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback', 'execute', 'prepare', 'vacuum', 'analyze', 'set', 'reset', 'show', 'discard', 'create', 'alter', 'drop', 'checkpoint', 'lock', 'explain']);
const NAMED = new Set(['execute', 'prepare', 'vacuum', 'analyze']);

/** The statements of an SQL text, split at semicolons outside quotes ('…' with '' inside, "…"). */
function splitStatements(text) {
  const statements = [];
  let quote = null;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quote) {
      if (char === quote) {
        if (text[i + 1] === quote) i++;
        else quote = null;
      }
    } else if (char === "'" || char === '"') quote = char;
    else if (char === ';') {
      statements.push(text.slice(from, i));
      from = i + 1;
    }
  }
  statements.push(text.slice(from));
  return statements;
}

/**
 * What the statements in these protocol messages are, without anything they carry: the first
 * word of each (`select`, `update`, `commit`), two for those that name what they run
 * (`execute batch_write`, `vacuum conversations`). Scripts quote message text as literals, so
 * statements are split outside quotes and only known words and identifiers are kept.
 * @param {Buffer} messages
 */
export function statementKinds(messages) {
  const kinds = [];
  for (let at = 0; at + 5 <= messages.length; at += 1 + messages.readInt32BE(at + 1)) {
    const type = messages[at];
    if (type !== QUERY && type !== PARSE) continue;
    const body = messages.subarray(at + 5, at + 1 + messages.readInt32BE(at + 1)).toString('utf8');
    // Q: the text, zero-terminated; P: the statement's name, then its text, each zero-terminated.
    const text = (type === PARSE ? body.slice(body.indexOf('\0') + 1) : body).split('\0')[0];
    for (const statement of splitStatements(text)) {
      const [first = '', second = ''] = statement.trim().split(/[\s(,]+/);
      const verb = first.toLowerCase();
      if (!verb) continue;
      if (!VERBS.has(verb)) kinds.push('?');
      else kinds.push(NAMED.has(verb) && /^[a-z_][a-z0-9_]*$/i.test(second) ? `${verb} ${second}` : verb);
    }
  }
  return kinds.join('; ');
}

class Connection {
  /** @param {import('node:net').Socket} socket */
  constructor(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.started = false;
    this.closed = false;
    socket.setNoDelay(true);
    open.add(this);
    socket.on('data', (data) => this.receive(data));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.close());
  }

  /** @param {Buffer} data */
  receive(data) {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    // Before the startup message: the untyped packets (length, code) a client opens with.
    while (!this.started && this.buffer.length >= 8) {
      const length = this.buffer.readInt32BE(0);
      const code = this.buffer.readInt32BE(4);
      if (this.buffer.length < length) return;
      const packet = this.buffer.subarray(0, length);
      this.buffer = this.buffer.subarray(length);
      if (code === SSL_REQUEST) this.socket.write('N');
      else if (code === CANCEL_REQUEST) this.socket.end(); // nothing to cancel: no backend process
      else if (code === PROTOCOL_3) {
        this.started = true;
        // PGlite has one session for every client: what the previous connection left in it
        // (prepared statements, settings, advisory locks) must not meet the next one, as with a
        // Postgres backend of its own. Only when no other client is sharing the session now.
        if (open.size === 1) this.enqueue(RESET);
        this.enqueue(Buffer.from(packet));
      } else this.socket.destroy();
    }
    if (!this.started) return;
    // Every complete typed message (type byte, then a length that counts itself) goes to PGlite in
    // one call: a node-postgres query's Parse/Bind/Describe/Execute/Sync arrive together.
    let end = 0;
    while (this.buffer.length - end >= 5) {
      const next = end + 1 + this.buffer.readInt32BE(end + 1);
      if (next > this.buffer.length) break;
      end = next;
    }
    if (end === 0) return;
    const messages = Buffer.from(this.buffer.subarray(0, end));
    this.buffer = this.buffer.subarray(end);
    this.enqueue(messages);
  }

  /** @param {Buffer | typeof RESET | typeof ROLLBACK} messages */
  enqueue(messages) {
    queue.push({ connection: this, messages });
    runQueue().catch(fail);
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    open.delete(this);
    // A client gone mid-transaction (a crash, a dropped pool connection) must not leave PGlite in
    // it: rolled back through the queue, so it never runs beside a statement (runQueue).
    if (inTransaction === this) this.enqueue(ROLLBACK);
  }
}

/** @param {unknown} error */
function fail(error) {
  // The database is in an unknown state: end the thread, which ends the server (pglite-host.ts).
  port.postMessage({ type: 'failed', message: `PGlite failed: ${error instanceof Error ? error.message : String(error)}` });
  process.exit(1);
}

const server = createServer((socket) => new Connection(socket));
await unlink(socketPath).catch(() => {}); // left by a process killed before it could remove it
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(socketPath, () => resolve(undefined));
});
server.on('error', fail);

port.on('message', async (message) => {
  if (message?.type !== 'close') return;
  server.close();
  await db.close();
  await unlink(socketPath).catch(() => {});
  process.exit(0); // ends this thread only, whatever a client may still hold open

});
port.postMessage({ type: 'ready' });
