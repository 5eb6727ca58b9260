import { useId, type FormEvent } from 'react';
import { useT } from '@/lib/i18n';
import styles from './account-screen.module.css';

interface Props {
  pending: boolean;
  disabled: boolean;
  onSubmit: (displayName: string, email: string) => void;
}

/**
 * Only rendered when the Auth emulator is configured: sign in as anyone, offline. Developer tooling,
 * so English only: its strings stay out of the translations that production builds ship.
 */
export function TestAccountForm({ pending, disabled, onSubmit }: Props) {
  const t = useT();
  const id = useId();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    onSubmit(String(data.get('displayName')).trim(), String(data.get('email')).trim());
  }

  return (
    <form className={styles.testAccount} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.testAccountTitle}>
        Test account <span className={styles.badge}>emulator</span>
      </h2>
      <label className={styles.field}>
        <span>Display name</span>
        <input name="displayName" required maxLength={100} autoComplete="off" placeholder="Ada Lovelace" />
      </label>
      <label className={styles.field}>
        <span>Email</span>
        <input name="email" type="email" required maxLength={320} autoComplete="off" placeholder="ada@example.com" />
      </label>
      <button type="submit" className={styles.secondaryButton} disabled={disabled} aria-busy={pending}>
        {pending ? t('account.signingIn') : 'Sign in with test account'}
      </button>
    </form>
  );
}
