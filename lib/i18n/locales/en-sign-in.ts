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
  },
  // Why a sign-in failed (lib/firebase/sign-in-errors.ts): with the screen, since it may fail
  // before the rest of English has loaded (offline, say).
  signInErrors: {
    popupClosed: 'The sign-in window was closed before sign-in finished.',
    popupBlocked: 'Your browser blocked the sign-in window. Allow pop-ups for this site and try again.',
    popupInterrupted: 'Another sign-in window took over from this one. Try again, one window at a time.',
    network: 'Couldn’t reach the sign-in service. Check your connection and try again.',
    accountExists: 'An account with this email already signs in another way. Use the button you signed up with.',
    tooManyRequests: 'Too many sign-in attempts. Wait a few minutes, then try again.',
    serviceTrouble: 'The sign-in service had a problem. Try again in a moment.',
    providerDisabled: 'This way of signing in is switched off for now. Try the other button.',
    userDisabled: 'This sign-in account has been disabled by its provider.',
    unavailable: 'Sign-in can’t run in this browser window. Open Parley in a regular browser tab and try again.',
    unauthorizedDomain: 'Sign-in isn’t set up for this web address. Open Parley from its usual address.',
    storageBlocked: 'Your browser blocks the storage sign-in needs. Allow cookies and site data for this site and try again.',
    deactivated: 'This account has been deactivated.',
    generic: 'Sign-in didn’t work. Please try again.',
  },
};
