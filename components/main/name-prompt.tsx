'use client';

import { useEffect, useId, useState, type FormEvent } from 'react';
import { MAX_DISPLAY_NAME_LENGTH } from '@/lib/contract';
import { useT } from '@/lib/i18n';
import { appDevicePreferences } from '@/lib/notifications/device-preferences';
import { checkDisplayName, saveDisplayName } from '@/lib/profile/profile';
import { useCurrentUser } from '@/lib/stores/session-store';
import buttons from '@/components/ui/button.module.css';
import prompt from '@/components/notifications/notifications.module.css';
import fields from '@/components/settings/settings.module.css';
import styles from './name-prompt.module.css';

type State = { state: 'idle' } | { state: 'saving' } | { state: 'failed'; error: string } | { state: 'problem'; problem: 'empty' | 'tooLong' };

/**
 * Someone with no name is shown to others as "Unknown user": the main screen asks them for one,
 * with the field right there, until they give one or say "Not now" (remembered on this browser).
 */
export function NamePrompt() {
  const t = useT();
  const id = useId();
  const user = useCurrentUser();
  const userId = user?.id ?? null;
  const nameless = user !== null && !user.username;
  // Whether this person dismissed it here; unknown until read, and nothing shows meanwhile, so a
  // dismissed prompt never flashes.
  const [read, setRead] = useState<{ userId: number; dismissed: boolean } | null>(null);
  const dismissed = read !== null && read.userId === userId ? read.dismissed : null;
  const [typed, setTyped] = useState('');
  const [saving, setSaving] = useState<State>({ state: 'idle' });

  useEffect(() => {
    if (userId === null || !nameless) return;
    let live = true;
    appDevicePreferences()
      .load(userId)
      .then((preferences) => live && setRead({ userId, dismissed: preferences.namePromptDismissed }))
      // Unreadable: asked again, which is only a prompt.
      .catch(() => live && setRead({ userId, dismissed: false }));
    return () => {
      live = false;
    };
  }, [userId, nameless]);

  if (!nameless || dismissed !== false || userId === null) return null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkDisplayName(typed);
    if (!checked.ok) {
      setSaving({ state: 'problem', problem: checked.problem });
      return;
    }
    setSaving({ state: 'saving' });
    const result = await saveDisplayName(checked.name);
    // Saved: the user has a name now, and this prompt goes with it.
    if (!result.ok) setSaving({ state: 'failed', error: 'error' in result ? result.error : '' });
  }

  function dismiss() {
    if (userId === null) return;
    setRead({ userId, dismissed: true });
    void appDevicePreferences().save(userId, { namePromptDismissed: true }).catch(() => undefined);
  }

  const message =
    saving.state === 'problem'
      ? saving.problem === 'empty'
        ? t('profile.nameEmpty')
        : t('profile.nameTooLong', { max: MAX_DISPLAY_NAME_LENGTH })
      : saving.state === 'failed'
        ? t('profile.nameFailed', { message: saving.error })
        : '';
  return (
    <section className={prompt.prompt} aria-labelledby={`${id}-title`}>
      <div className={prompt.promptText}>
        <h2 id={`${id}-title`} className={prompt.promptTitle}>
          {t('namePrompt.title')}
        </h2>
        <p id={`${id}-body`} className={prompt.promptBody}>
          {t('namePrompt.body', { unknown: t('common.unknownUser') })}
        </p>
      </div>
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate>
        <input
          className={fields.textInput}
          value={typed}
          autoComplete="name"
          spellCheck={false}
          maxLength={MAX_DISPLAY_NAME_LENGTH * 2}
          aria-label={t('profile.displayName')}
          aria-describedby={message ? `${id}-body ${id}-message` : `${id}-body`}
          aria-invalid={saving.state === 'problem'}
          onChange={(event) => {
            setTyped(event.target.value);
            setSaving({ state: 'idle' });
          }}
        />
        <button type="submit" className={`${buttons.button} ${buttons.primary}`} disabled={saving.state === 'saving'} aria-busy={saving.state === 'saving'}>
          {t('profile.saveName')}
        </button>
        <button type="button" className={buttons.button} onClick={dismiss}>
          {t('namePrompt.dismiss')}
        </button>
      </form>
      <p id={`${id}-message`} className={`${fields.fieldError} ${styles.error}`} role="alert">
        {message}
      </p>
    </section>
  );
}
