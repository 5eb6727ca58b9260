// Sending a local file to an HTTP response through buffers that are reused, not allocated per
// piece. A read stream takes a fresh 64 KiB buffer for every piece it reads; V8 counts those as
// external memory, and a few hundred megabytes of downloads a minute set off a collection of the
// whole heap every fraction of a second, pausing everyone's messages (BENCHMARKS.md, "Planner
// statistics, and what is left"). Here a download holds one buffer from a shared stock, reads a
// piece into it, writes it, and reads the next into it only once the response has handed the
// last to the kernel (the write's callback).
import type { FileHandle } from 'node:fs/promises';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

const PIECE_BYTES = 64 * 1024;
/** Spare buffers kept between downloads (4 MiB); more are made when more downloads run at once. */
const SPARE_MAX = 64;
const spare: Buffer[] = [];

/** Buffers in the stock now: for tests, which check that a finished download gave its back. */
export const spareBuffers = () => spare.length;

/** Resolves once `response` has handed `piece` on (the buffer may be reused); rejects if it closes first. */
function write(response: ServerResponse, piece: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('the response closed before the file was sent'));
    response.once('close', closed);
    response.write(piece, (error) => {
      response.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

/**
 * Writes the response's head, then bytes `start` to `end` (both included) of the open file, then
 * ends it. Rejects if the file is shorter than the range or the response fails or closes; the head is
 * sent by then, so the caller can only destroy the response. The handle is the caller's to close.
 */
export async function sendFile(handle: FileHandle, start: number, end: number, response: ServerResponse, status: number, headers: OutgoingHttpHeaders): Promise<void> {
  response.writeHead(status, headers);
  const buffer = spare.pop() ?? Buffer.allocUnsafeSlow(PIECE_BYTES);
  let position = start;
  while (position <= end) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(PIECE_BYTES, end - position + 1), position);
    if (bytesRead === 0) throw new Error('the file is shorter than its range');
    // A failure leaves the buffer to the garbage collector: the response may still hold the piece.
    await write(response, bytesRead === PIECE_BYTES ? buffer : buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  if (spare.length < SPARE_MAX) spare.push(buffer);
  response.end();
}
