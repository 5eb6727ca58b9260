// French for the sign-in screen. A part of fr.ts, in its chunk: unlike English's, it is not
// bundled with the sign-in page, which loads all of French before showing it.
import type { enSignIn } from './en-sign-in';
import type { TranslationOf } from '../types';

export const frSignIn: TranslationOf<typeof enSignIn> = {
  common: {
    appName: 'Parley',
    loading: 'Chargement…',
    retry: 'Réessayer',
    cancel: 'Annuler',
    close: 'Fermer',
    back: 'Retour',
    save: 'Enregistrer',
    errorGeneric: 'Un problème est survenu. Veuillez réessayer.',
    you: 'Vous',
    unknownUser: 'Utilisateur inconnu',
  },
  account: {
    signInTitle: 'Connectez-vous à Parley',
    loading: 'Chargement de Parley',
    title: 'Bienvenue sur Parley',
    tagline: 'Trouvez des personnes, suivez-les et discutez en temps réel.',
    signInHeading: 'Connexion',
    continueWithGoogle: 'Continuer avec Google',
    continueWithGithub: 'Continuer avec GitHub',
    signingIn: 'Connexion…',
  },
  signInErrors: {
    popupClosed: 'La fenêtre de connexion a été fermée avant la fin.',
    popupBlocked: 'Votre navigateur a bloqué la fenêtre de connexion. Autorisez les fenêtres pop-up pour ce site et réessayez.',
    popupInterrupted: 'Une autre fenêtre de connexion a pris le relais de celle-ci. Réessayez, avec une seule fenêtre.',
    network: 'Impossible de joindre le service de connexion. Vérifiez votre connexion et réessayez.',
    accountExists: 'Un compte avec cette adresse e-mail se connecte déjà autrement. Utilisez le bouton avec lequel vous vous êtes inscrit.',
    tooManyRequests: 'Trop de tentatives de connexion. Patientez quelques minutes, puis réessayez.',
    serviceTrouble: 'Le service de connexion a rencontré un problème. Réessayez dans un instant.',
    providerDisabled: 'Ce mode de connexion est désactivé pour le moment. Essayez l’autre bouton.',
    userDisabled: 'Ce compte de connexion a été désactivé par son fournisseur.',
    unavailable: 'La connexion ne peut pas se faire dans cette fenêtre. Ouvrez Parley dans un onglet normal du navigateur et réessayez.',
    unauthorizedDomain: 'La connexion n’est pas configurée pour cette adresse. Ouvrez Parley depuis son adresse habituelle.',
    storageBlocked: 'Votre navigateur bloque le stockage dont la connexion a besoin. Autorisez les cookies et les données de ce site, puis réessayez.',
    deactivated: 'Ce compte a été désactivé.',
    generic: 'La connexion n’a pas abouti. Veuillez réessayer.',
  },
};
