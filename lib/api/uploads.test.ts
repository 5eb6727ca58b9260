// uploadFile against a fake XMLHttpRequest: what it sends, how it reports progress, and how each
// failure arrives (the HTTP client's messages, the 401 rule, a cancel).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_UPLOAD_BYTES, type Attachment } from '@/lib/contract';
import { setNavigator } from '@/lib/navigation';
import { onSignOut } from '@/lib/session/sign-out';
import { getStoredToken, storeToken } from '@/lib/session/storage';
import { FileTooLargeError, UploadCancelledError, UploadError, uploadFile } from './uploads';

type Listener = (event: ProgressEvent) => void;

class FakeUpload {
  listeners = new Map<string, Listener[]>();
  addEventListener(type: string, listener: Listener) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: Partial<ProgressEvent> = {}) {
    for (const listener of this.listeners.get(type) ?? []) listener(event as ProgressEvent);
  }
}

class FakeXHR extends FakeUpload {
  static instances: FakeXHR[] = [];
  upload = new FakeUpload();
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;

  constructor() {
    super();
    FakeXHR.instances.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.emit('abort');
  }
  respond(status: number, statusText: string, body: string) {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.emit('load');
  }
}

const stored: Attachment = {
  id: 'a1',
  name: 'photo one.png',
  mime_type: 'image/png',
  size: 4,
  width: 2,
  height: 1,
  url: '/api/uploads/a1/photo%20one.png',
};

function file(name = 'photo one.png', type = 'image/png', size = 4): File {
  const result = new File(['data'], name, { type });
  if (size !== 4) Object.defineProperty(result, 'size', { value: size });
  return result;
}

function lastXHR(): FakeXHR {
  const xhr = FakeXHR.instances.at(-1);
  if (!xhr) throw new Error('no request was made');
  return xhr;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof Error)) throw new Error('expected the upload to fail');
  return error;
}

let navigateSpy: ReturnType<typeof vi.fn<(path: string) => void>>;
let consoleError: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  FakeXHR.instances = [];
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
  localStorage.clear();
  navigateSpy = vi.fn<(path: string) => void>();
  const unregister = setNavigator(navigateSpy);
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  return unregister;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('uploadFile', () => {
  it('POSTs the raw file with its type, encoded name and the stored token, and resolves with the attachment', async () => {
    storeToken('abc');
    const upload = uploadFile(file());
    const xhr = lastXHR();
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(new URL('/api/uploads', window.location.origin).href);
    expect(xhr.headers).toEqual({
      'Content-Type': 'image/png',
      'X-File-Name': 'photo%20one.png',
      Authorization: 'Bearer abc',
    });
    expect(xhr.body).toBeInstanceOf(File);
    xhr.respond(201, 'Created', JSON.stringify(stored));
    await expect(upload).resolves.toEqual(stored);
  });

  it('sends no Authorization without a token, and application/octet-stream for an untyped file', async () => {
    const upload = uploadFile(file('notes', ''));
    const xhr = lastXHR();
    expect(xhr.headers).toEqual({ 'Content-Type': 'application/octet-stream', 'X-File-Name': 'notes' });
    xhr.respond(201, 'Created', JSON.stringify(stored));
    await upload;
  });

  it('reports progress as a fraction, and 1 when done', async () => {
    const onProgress = vi.fn<(fraction: number) => void>();
    const upload = uploadFile(file(), { onProgress });
    const xhr = lastXHR();
    xhr.upload.emit('progress', { lengthComputable: true, loaded: 1, total: 4 });
    xhr.upload.emit('progress', { lengthComputable: true, loaded: 3, total: 4 });
    // Without a computable length, the file's own size stands in.
    xhr.upload.emit('progress', { lengthComputable: false, loaded: 2, total: 0 });
    xhr.respond(201, 'Created', JSON.stringify(stored));
    await upload;
    expect(onProgress.mock.calls.map(([fraction]) => fraction)).toEqual([0.25, 0.75, 0.5, 1]);
  });

  it('refuses a file over the limit before creating any request', async () => {
    const big = file('film.mp4', 'video/mp4', MAX_UPLOAD_BYTES + 1);
    const error = await failure(uploadFile(big));
    expect(error).toBeInstanceOf(FileTooLargeError);
    expect(error).toMatchObject({ fileName: 'film.mp4', size: MAX_UPLOAD_BYTES + 1, max: MAX_UPLOAD_BYTES });
    expect(FakeXHR.instances).toHaveLength(0);
  });

  it('accepts a file of exactly the limit', () => {
    void uploadFile(file('exact.bin', 'application/octet-stream', MAX_UPLOAD_BYTES));
    expect(FakeXHR.instances).toHaveLength(1);
  });

  it('maps a 413 to its msg and logs it', async () => {
    const upload = uploadFile(file());
    lastXHR().respond(413, 'Payload Too Large', JSON.stringify({ msg: 'The file is larger than 50 MB.' }));
    const error = await failure(upload);
    expect(error).toBeInstanceOf(UploadError);
    expect(error.message).toBe('The file is larger than 50 MB.');
    expect(error).toMatchObject({ response: { status: 413, statusText: 'Payload Too Large' } });
    expect(consoleError).toHaveBeenCalledWith(error);
    expect(navigateSpy).not.toHaveBeenCalled();
  });

  it('uses non_field_errors first, then the status text when the body says nothing', async () => {
    const first = uploadFile(file());
    lastXHR().respond(400, 'Bad Request', JSON.stringify({ non_field_errors: ['Bad type.', 'Bad name.'], msg: 'x' }));
    expect((await failure(first)).message).toBe('Bad type. Bad name.');

    const second = uploadFile(file());
    lastXHR().respond(500, 'Internal Server Error', JSON.stringify({ other: true }));
    expect((await failure(second)).message).toBe('Internal Server Error');
  });

  it('gives the raw error when the response has no body', async () => {
    const upload = uploadFile(file());
    lastXHR().respond(502, 'Bad Gateway', '');
    expect((await failure(upload)).message).toBe('Request failed with status code 502');
  });

  it('gives the raw error on a network failure', async () => {
    const upload = uploadFile(file());
    lastXHR().emit('error');
    const error = await failure(upload);
    expect(error.message).toBe('Network error: the upload did not reach the server.');
    expect(consoleError).toHaveBeenCalledWith(error);
  });

  it('signs out and goes to /accounts on 401', async () => {
    storeToken('stale');
    const signedOut = vi.fn();
    const unsubscribe = onSignOut(signedOut);
    const upload = uploadFile(file());
    lastXHR().respond(401, 'Unauthorized', JSON.stringify({ msg: 'Session expired.' }));
    const error = await failure(upload);
    unsubscribe();
    expect(error.message).toBe('Session expired.');
    expect(getStoredToken()).toBeNull();
    expect(signedOut).toHaveBeenCalledOnce();
    expect(navigateSpy).toHaveBeenCalledExactlyOnceWith('/accounts');
  });

  it('aborts the request on signal and rejects with a cancelled error, not logged', async () => {
    const controller = new AbortController();
    const onProgress = vi.fn();
    const upload = uploadFile(file(), { signal: controller.signal, onProgress });
    const xhr = lastXHR();
    controller.abort();
    const error = await failure(upload);
    expect(error).toBeInstanceOf(UploadCancelledError);
    expect(xhr.aborted).toBe(true);
    expect(consoleError).not.toHaveBeenCalled();
    expect(navigateSpy).not.toHaveBeenCalled();
    xhr.upload.emit('progress', { lengthComputable: true, loaded: 4, total: 4 });
    expect(onProgress).not.toHaveBeenCalled();
  });

  it('makes no request with an already aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await failure(uploadFile(file(), { signal: controller.signal }))).toBeInstanceOf(UploadCancelledError);
    expect(FakeXHR.instances).toHaveLength(0);
  });
});
