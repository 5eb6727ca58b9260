import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthorizeRequest } from '../../lib/contract';
import { api, authorizeBody, startTestServer, uniqueProfile, type TestServer } from '../test/helpers';
import { emulatorSignIn, type EmulatorAccount } from '../test/emulator';

let t: TestServer;
let account: EmulatorAccount;
beforeAll(async () => {
  t = await startTestServer();
  account = await emulatorSignIn(uniqueProfile());
});
afterAll(() => t.close());

const post = (init: Parameters<typeof api>[2]) => api(t.url, '/accounts/authorize', { method: 'POST', ...init });

describe('POST /api/accounts/authorize with a bad payload', () => {
  it('400s on a missing firebase_id, naming the field', async () => {
    const body: Partial<AuthorizeRequest> = authorizeBody(account);
    delete body.firebase_id;
    const response = await post({ json: body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.stringMatching(/^firebase_id: /)] });
  });

  it('400s on an unknown social_type', async () => {
    const response = await post({ json: { ...authorizeBody(account), social_type: 'myspace' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.stringMatching(/^social_type: /)] });
  });

  it.each([
    ['http', 'http://example.com/me.png'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:image/png;base64,AAAA'],
  ])('400s an %s: avatar (the pages show https images only)', async (_scheme, avatar) => {
    const response = await post({ json: { ...authorizeBody(account), avatar } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['avatar: Must be an https:// URL.'] });
  });

  it('400s on an unknown field', async () => {
    const response = await post({ json: { ...authorizeBody(account), is_admin: true } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['is_admin: Unknown field.'] });
  });

  it('reports every problem at once', async () => {
    const response = await post({ json: { ...authorizeBody(account), email: 'nope', avatar: 'javascript:alert(1)' } });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      non_field_errors: [expect.stringMatching(/^email: /), expect.stringMatching(/^avatar: /)],
    });
  });

  it('400s on a body that is not an object', async () => {
    const response = await post({ json: ['firebase_id'] });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.any(String)] });
  });

  it('400s on malformed JSON', async () => {
    const response = await post({ raw: '{"firebase_id": ' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: ['The request body is not valid JSON.'] });
  });

  it('400s on an empty JSON body', async () => {
    const response = await post({ raw: '', contentType: 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ non_field_errors: [expect.any(String)] });
  });

  it('415s on a non-JSON content type', async () => {
    const response = await post({ raw: 'firebase_id=x', contentType: 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ msg: expect.any(String) });
  });

  it('415s on text/plain, which Fastify would otherwise accept', async () => {
    const response = await post({ raw: JSON.stringify(authorizeBody(account)), contentType: 'text/plain' });
    expect(response.status).toBe(415);
    expect(response.body).toEqual({ msg: expect.any(String) });
  });

  it('413s on a body over the limit', async () => {
    const response = await post({ json: { ...authorizeBody(account), username: 'x'.repeat(2 * 1024 * 1024) } });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ msg: 'The request body is too large.' });
  });
});
