// English for the sign-in screen: bundled with it (it is server-rendered in English), where the
// rest of English, like every other language, is a chunk loaded when the app needs it (../i18n.ts).
export const enSignIn = {
  common: {
    appName: 'Parley',
    loading: 'Loading…',
    retry: 'Try again',
    cancel: 'Cancel',
    close: 'Close',
    back: 'Back',
    save: 'Save',
    errorGeneric: 'Something went wrong. Please try again.',
    you: 'You',
    unknownUser: 'Unknown user',
  },
  account: {
    signInTitle: 'Sign in to Parley',
    loading: 'Loading Parley',
    title: 'Welcome to Parley',
    tagline: 'Find people, follow them and talk in real time.',
    signInHeading: 'Sign in',
    continueWithGoogle: 'Continue with Google',
    continueWithGithub: 'Continue with GitHub',
    signingIn: 'Signing in…',
    signInFailed: 'Sign-in failed: {{message}}',
    popupClosed: 'The sign-in window was closed before sign-in finished.',
    popupBlocked: 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
    deactivated: 'This account has been deactivated.',
  },
};
