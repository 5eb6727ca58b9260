import { beforeEach, describe, expect, it } from 'vitest';
import { initI18n } from '@/lib/i18n';
import { UploadError } from './uploads';
import { CHANGE_REFUSALS } from '@/lib/contract';
import { changeFailureMessage, errorKind, userMessage } from './user-message';

const httpError = (status: number, data?: unknown) => Object.assign(new Error('Request failed with status code'), { name: 'HTTPError', response: { status, statusText: '' }, data });

describe('what a person reads when something fails', () => {
  beforeEach(async () => {
    await initI18n('en');
  });

  it('no answer at all (network, timeout) is a connection problem, never the request line', () => {
    const network = new TypeError('Request failed due to a network error: GET http://localhost/api/conversations/11/messages?limit=50');
    expect(userMessage(network)).toBe('Can’t reach Parley. Check your connection.');
    // ky 2 wraps it: "Request failed due to a network error: GET http://…".
    const wrapped = Object.assign(new Error('Request failed due to a network error: GET http://localhost/api/x'), { name: 'NetworkError' });
    expect(userMessage(wrapped)).toBe('Can’t reach Parley. Check your connection.');
    expect(errorKind(Object.assign(new Error('Request timed out: GET …'), { name: 'TimeoutError' }))).toBe('network');
    expect(errorKind(new UploadError('Network error: the upload did not reach the server.'))).toBe('network');
  });

  it('a response says what kind of failure it was by its status', () => {
    expect([401, 403, 404, 413, 429, 500, 503, 400].map((status) => errorKind(httpError(status, { msg: 'x' })))).toEqual([
      'session',
      'forbidden',
      'notFound',
      'tooLarge',
      'rateLimited',
      'server',
      'server',
      'invalid',
    ]);
    expect(userMessage(httpError(500))).toBe('Parley is having trouble right now. Try again in a moment.');
  });

  it('socket refusals by their field, passing errors by their msg', () => {
    expect(errorKind({ non_field_errors: ['recipient_id: User not found.'] })).toBe('recipientGone');
    expect(errorKind({ non_field_errors: ['attachment_id: No such upload of yours.'] })).toBe('attachmentGone');
    expect(errorKind({ non_field_errors: ['text: Too big'] })).toBe('invalid');
    expect(errorKind({ msg: 'Not connected.' })).toBe('network');
    expect(errorKind({ msg: 'operation has timed out' })).toBe('network');
    expect(errorKind({ msg: 'Too many requests. Try again in 4 s.' })).toBe('rateLimited');
    expect(errorKind({ msg: 'This account has been deactivated.' })).toBe('forbidden');
    expect(errorKind('what')).toBe('unknown');
  });

  it('in the reader’s language', async () => {
    await initI18n('fr');
    expect(userMessage(new TypeError('Failed to fetch'))).toBe('Impossible de joindre Parley. Vérifiez votre connexion.');
    await initI18n('es');
    expect(userMessage(new TypeError('Failed to fetch'))).toBe('No se puede conectar con Parley. Comprueba tu conexión.');
  });

  it('a refused change to a message in the reader’s language, whatever sentence the server used', async () => {
    expect(changeFailureMessage({ non_field_errors: [CHANGE_REFUSALS.too_late] })).toBe('It is too late to change this message.');
    expect(changeFailureMessage({ non_field_errors: [CHANGE_REFUSALS.too_many] })).toBe('You can add at most 12 different reactions to a message.');
    expect(changeFailureMessage({ msg: 'Too many changes right now, try again shortly.' })).toBe('That was a lot at once. Wait a moment and try again.');
    await initI18n('es');
    expect(changeFailureMessage({ non_field_errors: [CHANGE_REFUSALS.deleted] })).toBe('Este mensaje se eliminó.');
    await initI18n('fr');
    expect(changeFailureMessage({ non_field_errors: [CHANGE_REFUSALS.not_yours] })).toBe('Seule la personne qui l’a envoyé peut le faire.');
  });
});
