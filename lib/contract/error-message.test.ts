import { describe, expect, it } from 'vitest';
import { errorBodyMessage, errorMessage } from './error-message';

/** The shape ky 2 gives an HTTPError: the Response and the pre-parsed body in `data`. */
function httpError(status: number, statusText: string, data?: unknown) {
  return Object.assign(new Error(`Request failed with status code ${status}`), {
    response: new Response(null, { status, statusText }),
    data,
  });
}

describe('errorMessage (the order of docs/CLIENT-RULES.md)', () => {
  it('1. prefers non_field_errors, joining an array with spaces', () => {
    const error = httpError(400, 'Bad Request', { non_field_errors: ['Too long.', 'Bad id.'], msg: 'ignored' });
    expect(errorMessage(error)).toBe('Too long. Bad id.');
  });

  it('1. takes a non_field_errors string as is', () => {
    expect(errorMessage(httpError(400, 'Bad Request', { non_field_errors: 'Nope.', msg: 'ignored' }))).toBe('Nope.');
  });

  it('1. an empty non_field_errors falls through to msg', () => {
    expect(errorMessage(httpError(400, 'Bad Request', { non_field_errors: [], msg: 'Use msg.' }))).toBe('Use msg.');
  });

  it('2. else the body msg', () => {
    expect(errorMessage(httpError(403, 'Forbidden', { msg: 'Not yours.' }))).toBe('Not yours.');
  });

  it('3. else the status text', () => {
    expect(errorMessage(httpError(404, 'Not Found', { detail: 'other shape' }))).toBe('Not Found');
  });

  it('4. else the status code (HTTP/2 has no status text)', () => {
    expect(errorMessage(httpError(502, '', { detail: 'other shape' }))).toBe('502');
  });

  it('5. a response with no body passes on the raw error, not the status text', () => {
    expect(errorMessage(httpError(503, 'Service Unavailable'))).toBe('Request failed with status code 503');
    expect(errorMessage(httpError(503, 'Service Unavailable', ''))).toBe('Request failed with status code 503');
    expect(errorMessage(httpError(503, 'Service Unavailable', null))).toBe('Request failed with status code 503');
  });

  it('a body that is not JSON is skipped past to the status text', () => {
    expect(errorMessage(httpError(500, 'Internal Server Error', '<html>oops</html>'))).toBe('Internal Server Error');
    expect(errorMessage(httpError(500, '', 'plain text'))).toBe('500');
  });

  it('a JSON body that arrived as text is still read', () => {
    expect(errorMessage(httpError(400, 'Bad Request', '{"msg":"From text."}'))).toBe('From text.');
  });

  it('5. without a response there is no body: the raw error message', () => {
    const network = new TypeError('Failed to fetch');
    expect(errorMessage(network)).toBe('Failed to fetch');
  });

  it('5. a raw error that is not an Error is passed on as text', () => {
    expect(errorMessage('offline')).toBe('offline');
    expect(errorMessage({ code: 1 })).toBe('{"code":1}');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});

describe('errorBodyMessage', () => {
  it('reads the ack error shapes and nothing else', () => {
    expect(errorBodyMessage({ non_field_errors: ['a', 'b'] })).toBe('a b');
    expect(errorBodyMessage({ msg: 'm' })).toBe('m');
    expect(errorBodyMessage({})).toBeUndefined();
    expect(errorBodyMessage(null)).toBeUndefined();
  });
});
