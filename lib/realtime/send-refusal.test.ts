import { describe, expect, it } from 'vitest';
import { SEND_REFUSALS, type SendRefusal } from '@/lib/contract';
import { i18n, initI18n } from '@/lib/i18n';
import { refusalText, sendRefusal } from './send-refusal';

describe('sendRefusal', () => {
  it('names each refusal the server sends by its line', () => {
    for (const [refusal, line] of Object.entries(SEND_REFUSALS)) {
      expect(sendRefusal({ non_field_errors: [line] }), line).toBe(refusal);
    }
  });

  it('reads a text the payload check refused as too long, and anything else as invalid', () => {
    expect(sendRefusal({ non_field_errors: ['text: Too big: expected string to have <=4000 characters'] })).toBe('too_long');
    expect(sendRefusal({ non_field_errors: ['client_id: Invalid UUID'] })).toBe('invalid');
    expect(sendRefusal({ msg: 'Too many messages right now, try again shortly.' })).toBe('invalid');
  });

  it('has words for every refusal in every language', async () => {
    const refusals: SendRefusal[] = [...(Object.keys(SEND_REFUSALS) as SendRefusal[]), 'too_long', 'invalid'];
    for (const language of ['en', 'es', 'fr']) {
      await initI18n(language);
      for (const refusal of refusals) expect(refusalText(refusal, i18n.t), `${language} ${refusal}`).not.toMatch(/^thread\./);
    }
    await initI18n('fr');
    expect(refusalText('too_long', i18n.t)).toBe('il dépasse 4\u202f000 caractères.');
    await initI18n('en');
  });
});
