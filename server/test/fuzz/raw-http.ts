// Two clients a browser never is: node:http with full control over the method, the path (sent as
// is, not normalised) and the headers, and a raw TCP socket for what is not HTTP at all.
import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import type { RestCase } from './rest-case-shape';

interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}
export type HttpOutcome = HttpAnswer | { error: string };

const TIMEOUT_MS = 15_000;

export function sendRequest(base: string, c: RestCase, agent: Agent | false): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: HttpOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    // Node frames a body by itself only for methods that usually carry one; a DELETE's body would go
    // out unframed and read as the next request. Browsers always send its length.
    const framed = c.body !== undefined && !c.chunked && !Object.keys(c.headers).some((name) => name.toLowerCase() === 'content-length');
    const headers = {
      ...c.headers,
      ...(c.chunked && { 'transfer-encoding': 'chunked' }),
      ...(framed && { 'content-length': String(Buffer.byteLength(c.body as string | Buffer)) }),
    };
    const req = request(`${base}${c.path}`, { method: c.method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') });
        if (c.partial) req.destroy();
      });
      res.on('error', (error) => done({ error: `response: ${error.message}` }));
    });
    // Once answered, a reset (the server refusing the rest of a body) changes nothing: done() ignores it.
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: `${error.code ?? ''} ${error.message}` }));
    const timer = setTimeout(() => {
      done({ error: `no answer within ${TIMEOUT_MS} ms` });
      req.destroy();
    }, TIMEOUT_MS);
    if (c.body === undefined) req.end();
    else if (c.partial) req.write(c.body);
    else req.end(c.body);
  });
}

export interface RawAnswer {
  /** Null when the server closed the connection without answering. */
  status: number | null;
  text: string;
}

/** Writes the bytes, half-closes, and collects whatever comes back until the server closes. */
export function sendRaw(port: number, bytes: Buffer, ms = 3_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ status: status ? Number(status) : null, text });
    };
    const timer = setTimeout(() => socket.destroy(), ms);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', finish);
    socket.on('error', () => {}); // a reset is an answer too; 'close' follows
    socket.end(bytes);
  });
}
