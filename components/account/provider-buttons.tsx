import type { SocialType } from '@/lib/contract';
import styles from './account-screen.module.css';

const PROVIDERS: { type: SocialType; label: string; icon: string }[] = [
  { type: 'google', label: 'Continue with Google', icon: 'G' },
  { type: 'github', label: 'Continue with GitHub', icon: '⌥' },
];

interface Props {
  pending: string | null;
  onSignIn: (socialType: SocialType) => void;
}

export function ProviderButtons({ pending, onSignIn }: Props) {
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
          onClick={() => onSignIn(type)}
        >
          <span className={styles.providerIcon} aria-hidden="true">
            {icon}
          </span>
          {pending === type ? 'Signing in…' : label}
        </button>
      ))}
    </div>
  );
}
