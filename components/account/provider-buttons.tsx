import type { SocialType } from '@/lib/contract';
import { useT } from '@/lib/i18n';
import styles from './account-screen.module.css';

const PROVIDERS = [
  { type: 'google', label: 'account.continueWithGoogle', icon: 'G' },
  { type: 'github', label: 'account.continueWithGithub', icon: '⌥' },
] as const satisfies readonly { type: SocialType; label: string; icon: string }[];

interface Props {
  pending: string | null;
  /** A sign-in may be about to start (pointer over a button, or focus): fetch its code now. */
  onIntent?: () => void;
  onSignIn: (socialType: SocialType) => void;
}

export function ProviderButtons({ pending, onIntent, onSignIn }: Props) {
  const t = useT();
  return (
    <div className={styles.providers}>
      {PROVIDERS.map(({ type, label, icon }) => (
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
          <span className={styles.providerIcon} aria-hidden="true">
            {icon}
          </span>
          {pending === type ? t('account.signingIn') : t(label)}
        </button>
      ))}
    </div>
  );
}
