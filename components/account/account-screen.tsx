'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { publicConfig } from '@/lib/config/public';
import { signIn, signInErrorMessage, type SignInMethod } from '@/lib/firebase/sign-in';
import { ProviderButtons } from './provider-buttons';
import { TestAccountForm } from './test-account-form';
import styles from './account-screen.module.css';

export function AccountScreen() {
  const router = useRouter();
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function start(method: SignInMethod) {
    setPending(method.kind === 'provider' ? method.socialType : method.kind);
    setError(null);
    try {
      await signIn(method);
      router.replace('/main');
    } catch (failure) {
      setError(signInErrorMessage(failure));
      setPending(null);
    }
  }

  return (
    <main className={styles.page}>
      <section className={styles.card} aria-labelledby="sign-in-title">
        <p className={styles.brand} aria-hidden="true">
          Parley
        </p>
        <h1 id="sign-in-title" className={styles.title}>
          Sign in to Parley
        </h1>
        <p className={styles.lead}>Find people, follow them and talk in real time.</p>

        <ProviderButtons pending={pending} onSignIn={(socialType) => start({ kind: 'provider', socialType })} />

        {publicConfig.authEmulatorHost ? (
          <TestAccountForm
            pending={pending === 'test-account'}
            disabled={pending !== null}
            onSubmit={(displayName, email) => start({ kind: 'test-account', displayName, email })}
          />
        ) : null}

        {error ? (
          <p className={styles.error} role="alert">
            {error}
          </p>
        ) : null}
      </section>
    </main>
  );
}
