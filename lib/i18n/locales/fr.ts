// French (français). Plurals: _one (0 and 1), _many (1 000 000 and up: « de »), _other.
// In the same parts as English (en.ts), each imported only here, so all of French stays one chunk.
import type { Translation } from '../types';
import { frSignIn } from './fr-sign-in';
import { frMain } from './fr-main';
import { frThread } from './fr-thread';
import { frSettings } from './fr-settings';

export const fr: Translation = {
  ...frSignIn,
  ...frMain,
  ...frThread,
  ...frSettings,
  errors: {
    network: 'Impossible de joindre Parley. Vérifiez votre connexion.',
    session: 'Votre session est terminée. Reconnectez-vous.',
    forbidden: 'Ce compte ne peut pas faire cela.',
    notFound: 'Ce n’est plus disponible.',
    tooLarge: 'C’est trop volumineux pour être envoyé.',
    rateLimited: 'Beaucoup d’un coup. Patientez un instant puis réessayez.',
    server: 'Parley rencontre un problème. Réessayez dans un instant.',
    recipientGone: 'Vous ne pouvez pas envoyer de messages à cette personne.',
    attachmentGone: 'Le fichier joint n’est plus disponible.',
    invalid: 'Parley n’a pas pu accepter cela.',
    unknown: 'Un problème est survenu. Veuillez réessayer.',
  },
  languages: {
    en: 'English',
    es: 'Español',
    fr: 'Français',
  },
};
