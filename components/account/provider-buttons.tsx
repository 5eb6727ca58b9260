import type { ReactNode } from 'react';
import type { SocialType } from '@/lib/contract';
import { useT } from '@/lib/i18n';
import styles from './account-screen.module.css';

const PROVIDERS = [
  { type: 'google', label: 'account.continueWithGoogle' },
  { type: 'github', label: 'account.continueWithGithub' },
] as const satisfies readonly { type: SocialType; label: string }[];

interface Props {
  /** Each provider's mark, drawn by the page (provider-marks.tsx). */
  marks: Record<SocialType, ReactNode>;
  pending: string | null;
  /** A sign-in may be about to start (pointer over a button, or focus): fetch its code now. */
  onIntent?: () => void;
  onSignIn: (socialType: SocialType) => void;
}

/** "Continue with Google" and "Continue with GitHub", each with its provider's mark on the left. */
export function ProviderButtons({ marks, pending, onIntent, onSignIn }: Props) {
  const t = useT();
  return (
    <div className={styles.providers}>
      {PROVIDERS.map(({ type, label }) => (
        <button
          key={type}
          type="button"
          className={styles.providerButton}
          data-provider={type}
          disabled={pending !== null}
          aria-busy={pending === type}
          onPointerEnter={onIntent}
          onFocus={onIntent}
          onClick={() => onSignIn(type)}
        >
          <span className={styles.providerIcon}>{marks[type]}</span>
          <span className={styles.providerLabel}>{pending === type ? t('account.signingIn') : t(label)}</span>
        </button>
      ))}
    </div>
  );
}
