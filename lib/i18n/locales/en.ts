// English: the reference language. Every other language has every key here (checked by a test);
// plural keys end in CLDR categories (_one, _other; other languages add theirs, e.g. _many).
// Its texts are in parts by screen, the same in every language: the sign-in screen's (common,
// account, signInErrors) in en-sign-in.ts, so that page loads only those; the main area, a
// conversation and the settings in the others. A part is imported only here, so it stays in this
// language's chunk (../i18n.ts loads it when the app needs it); what every screen uses is below.
import { enSignIn } from './en-sign-in';
import { enMain } from './en-main';
import { enThread } from './en-thread';
import { enSettings } from './en-settings';

export const en = {
  ...enSignIn,
  ...enMain,
  ...enThread,
  ...enSettings,
  errors: {
    network: 'Can’t reach Parley. Check your connection.',
    session: 'Your session has ended. Sign in again.',
    forbidden: 'This account can’t do that.',
    notFound: 'That isn’t here any more.',
    tooLarge: 'That is too large to send.',
    rateLimited: 'That was a lot at once. Wait a moment and try again.',
    server: 'Parley is having trouble right now. Try again in a moment.',
    recipientGone: 'You can’t send messages to this person.',
    attachmentGone: 'The attached file is no longer available.',
    invalid: 'Parley couldn’t accept that.',
    unknown: 'Something went wrong. Please try again.',
  },
  /** Each language by its own name, the same in every translation. */
  languages: {
    en: 'English',
    es: 'Español',
    fr: 'Français',
  },
};
