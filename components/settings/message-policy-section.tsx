import { useId, useState } from 'react';
import { DEFAULT_MESSAGE_POLICY, MESSAGE_POLICIES, type MessagePolicy } from '@/lib/contract';
import { useCurrentUser } from '@/lib/stores/session-store';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { useT } from '@/lib/i18n';
import modal from '@/components/ui/modal.module.css';
import styles from './settings.module.css';

/** Who can message me: everyone, people I follow, or nobody (for new conversations). */
export function MessagePolicySection() {
  const t = useT();
  const id = useId();
  const policy = useCurrentUser()?.message_policy ?? DEFAULT_MESSAGE_POLICY;
  // The choice shows at once; the saved setting (the published user) takes over when the server answers.
  const [choice, setChoice] = useState<MessagePolicy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const saving = choice !== null;

  async function choose(next: MessagePolicy) {
    setChoice(next);
    setError(null);
    const result = await useSafetyStore.getState().setMessagePolicy(next);
    setChoice(null);
    if (!result.ok) setError(result.error);
  }

  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('privacy.whoCanMessage')}</h3>
      <fieldset className={styles.options} aria-busy={saving} aria-describedby={`${id}-hint`}>
        <legend className="visually-hidden">{t('privacy.whoCanMessage')}</legend>
        {MESSAGE_POLICIES.map((option) => (
          <label key={option} className={styles.option}>
            <input type="radio" name={`${id}-policy`} value={option} checked={(choice ?? policy) === option} disabled={saving} onChange={() => void choose(option)} />
            <span>{t(`privacy.policies.${option}`)}</span>
          </label>
        ))}
      </fieldset>
      <p id={`${id}-hint`} className={styles.hint}>
        {t('privacy.whoCanMessageHint')}
      </p>
      <p className={modal.error} role="alert">
        {error ? t('privacy.saveFailed', { message: error }) : ''}
      </p>
    </section>
  );
}
