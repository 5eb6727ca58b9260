'use client';

import { useState, type ReactNode } from 'react';
import dynamic from 'next/dynamic';
import { useRouter } from 'next/navigation';
import type { SocialType } from '@/lib/contract';
import type { SignInMethod } from '@/lib/lifecycle/sign-in';
import type { SignInFailure } from '@/lib/firebase/sign-in-errors';
import { loadAllTexts, useT } from '@/lib/i18n';
import { FIRST_PAINT } from '@/lib/session/first-paint';
import { Spinner } from '@/components/ui/spinner';
import { ProviderButtons } from './provider-buttons';
import styles from './account-screen.module.css';

// Emulator only. The literal env access is inlined at build time, so a build without the
// emulator setting contains no trace of the test-account form (scripts/check-production-build).
const TestAccountForm = process.env.NEXT_PUBLIC_FIREBASE_AUTH_EMULATOR_HOST
  ? dynamic(() => import('./test-account-form').then((module) => module.TestAccountForm))
  : null;

// The sign-in flow (API client, socket, stores, then Firebase) is downloaded when a sign-in is
// about to start, never with the page: the first load stays that of a small page (BENCHMARKS.md has its budget).
const loadSignIn = () => import('@/lib/lifecycle/sign-in');

/** Which failure it was: the table of Firebase's codes comes when one happens; not loading it is the network's. */
const describeFailure = (failure: unknown): Promise<SignInFailure> =>
  import('@/lib/firebase/sign-in-errors').then(
    (module) => module.signInFailure(failure),
    () => 'network' as const,
  );

interface Props {
  /** Each provider's mark (provider-marks.tsx), rendered by the page on the server. */
  marks: Record<SocialType, ReactNode>;
}

export function AccountScreen({ marks }: Props) {
  const t = useT();
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  // The kind, not the sentence: it follows the language shown (a sign-in may change it).
  const [error, setError] = useState<SignInFailure | null>(null);

  async function start(method: SignInMethod) {
    setPending(method.kind === 'provider' ? method.socialType : method.kind);
    setError(null);
    try {
      // The main area after it needs more than the sign-in screen's texts (its errors are among
      // them). A failure to load them leaves the sign-in screen's own (the area loads them again).
      const [{ signIn }] = await Promise.all([loadSignIn(), loadAllTexts().catch(() => {})]);
      await signIn(method);
      router.replace('/main');
    } catch (failure) {
      // The details (Firebase's code, the server's answer) are for the console; the person reads a sentence.
      console.error(failure);
      setError(await describeFailure(failure));
      setPending(null);
    }
  }

  // Server-rendered (docs/DECISIONS.md, "/account is server-rendered"): until the client has caught up with the stored token and locale,
  // the document's first-paint marks may hide the screen and show the cover in its place.
  return (
    <>
      <div {...FIRST_PAINT.cover}>
        <Spinner label={t('account.loading')} fullScreen />
      </div>
      <main className={styles.page} {...FIRST_PAINT.screen}>
        <section className={styles.card} aria-labelledby="sign-in-title">
          <p className={styles.brand} aria-hidden="true">
            {t('common.appName')}
          </p>
          <h1 id="sign-in-title" className={styles.title}>
            {t('account.signInTitle')}
          </h1>
          <p className={styles.lead}>{t('account.tagline')}</p>

          <ProviderButtons
            marks={marks}
            pending={pending}
            onIntent={() => {
              void loadSignIn().catch(() => {});
              void loadAllTexts().catch(() => {});
            }}
            onSignIn={(socialType) => start({ kind: 'provider', socialType })}
          />

          {TestAccountForm ? (
            <TestAccountForm
              pending={pending === 'test-account'}
              disabled={pending !== null}
              onSubmit={(displayName, email) => start({ kind: 'test-account', displayName, email })}
            />
          ) : null}

          {error ? (
            <p className={styles.error} role="alert">
              {t(`signInErrors.${error}`)}
            </p>
          ) : null}
        </section>
      </main>
    </>
  );
}
