// File uploads (POST /api/uploads, the raw file as the body). XMLHttpRequest rather than the ky
// client: fetch cannot report upload progress over HTTP/1.1. The client's rules still apply:
// the stored token as is, the same error messages, and the 401 sign-out (docs/CLIENT-RULES.md).
import { MAX_UPLOAD_BYTES, type Attachment } from '@/lib/contract';
import { publicConfig } from '@/lib/config/public';
import { getStoredToken } from '@/lib/session/storage';
import { api, handleUnauthorized, resolveApiPrefix } from './client';
import { errorMessage } from '../contract/error-message';

/** Refused before any request: the file is over MAX_UPLOAD_BYTES. */
export class FileTooLargeError extends Error {
  override readonly name = 'FileTooLargeError';
  constructor(
    readonly fileName: string,
    readonly size: number,
    readonly max: number = MAX_UPLOAD_BYTES,
  ) {
    super(`"${fileName}" is ${size} bytes; files can be at most ${max} bytes.`);
  }
}

/** The caller aborted the upload: not a failure, nothing is logged. */
export class UploadCancelledError extends Error {
  override readonly name = 'UploadCancelledError';
  constructor() {
    super('Upload cancelled.');
  }
}

/** A failed upload, shaped like ky's HTTPError (`response`, pre-parsed `data`) for errorMessage. */
export class UploadError extends Error {
  override readonly name = 'UploadError';
  readonly response: { status: number; statusText: string } | undefined;
  readonly data: unknown;
  constructor(message: string, response?: { status: number; statusText: string }, data?: unknown) {
    super(message);
    this.response = response;
    this.data = data;
  }
}

export interface UploadOptions {
  /** Called with the fraction sent so far, from 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export function isUploadCancelled(error: unknown): error is UploadCancelledError {
  return error instanceof UploadCancelledError;
}

/** The size problem with `file`, or null when it may be uploaded. */
export function checkUploadSize(file: File): FileTooLargeError | null {
  return file.size > MAX_UPLOAD_BYTES ? new FileTooLargeError(file.name, file.size) : null;
}

/** Where uploads go, resolved like the ky client's prefix. */
function uploadUrl(): string {
  return `${resolveApiPrefix(publicConfig.apiUrl).replace(/\/+$/, '')}/uploads`;
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Uploads `file` and resolves with the stored Attachment. */
export function uploadFile(file: File, { onProgress, signal }: UploadOptions = {}): Promise<Attachment> {
  const tooLarge = checkUploadSize(file);
  if (tooLarge) return Promise.reject(tooLarge);
  if (signal?.aborted) return Promise.reject(new UploadCancelledError());

  return new Promise<Attachment>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    let settled = false;

    function fail(error: UploadError): void {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      error.message = errorMessage(error);
      console.error(error);
      if (error.response?.status === 401) handleUnauthorized();
      reject(error);
    }

    function onAbort(): void {
      if (settled) return;
      settled = true;
      xhr.abort();
      reject(new UploadCancelledError());
    }

    xhr.open('POST', uploadUrl());
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.setRequestHeader('X-File-Name', encodeURIComponent(file.name));
    const token = getStoredToken();
    // The stored value already reads "Bearer <token>".
    if (token) xhr.setRequestHeader('Authorization', token);

    xhr.upload.addEventListener('progress', (event) => {
      if (settled || !onProgress) return;
      const total = event.lengthComputable && event.total > 0 ? event.total : file.size;
      onProgress(total > 0 ? Math.min(1, event.loaded / total) : 0);
    });

    xhr.addEventListener('load', () => {
      if (settled) return;
      const body = parse(typeof xhr.responseText === 'string' ? xhr.responseText : '');
      if (xhr.status >= 200 && xhr.status < 300) {
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        onProgress?.(1);
        resolve(body as Attachment);
        return;
      }
      const response = { status: xhr.status, statusText: xhr.statusText };
      fail(new UploadError(`Request failed with status code ${xhr.status}`, response, body));
    });
    xhr.addEventListener('error', () => fail(new UploadError('Network error: the upload did not reach the server.')));
    xhr.addEventListener('timeout', () => fail(new UploadError('The upload timed out.')));
    // An abort not asked for through `signal` (the browser's own) still ends the promise.
    xhr.addEventListener('abort', () => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      reject(new UploadCancelledError());
    });

    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(file);
  });
}

/**
 * Deletes an upload that was never sent (taken off the composer, or left there), so it stops
 * counting against the user's storage at once. `keepalive`: it still goes out when it is asked
 * for as the page closes.
 */
export async function deleteUpload(id: string): Promise<void> {
  await api.delete(`uploads/${encodeURIComponent(id)}`, { keepalive: true });
}
