import { useId, useRef, useState } from 'react';
import { userMessage } from '@/lib/api/user-message';
import { useT } from '@/lib/i18n';
import styles from './settings.module.css';

type Outcome = { state: 'idle' } | { state: 'saved' } | { state: 'refused'; wanted: boolean; message: string };

interface Props {
  /** The section's heading; without one the section is named by `label`. */
  title?: string;
  label: string;
  hint: string;
  /** The saved value (the published user's). */
  checked: boolean;
  /** Saves the new value; a rejection puts the switch back and says why. */
  save: (on: boolean) => Promise<unknown>;
}

/**
 * A privacy setting that is on or off: the switch, what it means, and whether saving it worked.
 * The switch moves at once, as a switch does; the server is told behind it. A refusal moves it
 * back, and the status line says so and why. Changes are saved one after another, in the order made.
 */
export function PrivacySwitch({ title, label, hint, checked, save }: Props) {
  const t = useT();
  const id = useId();
  // The value being saved, shown until the server has answered the latest change.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const saving = useRef<Promise<void>>(Promise.resolve());
  const latest = useRef(0);

  function change(on: boolean) {
    const request = ++latest.current;
    setWanted(on);
    setOutcome({ state: 'idle' });
    saving.current = saving.current.then(async () => {
      let answer: Outcome;
      try {
        await save(on);
        answer = { state: 'saved' };
      } catch (error) {
        answer = { state: 'refused', wanted: on, message: userMessage(error) };
      }
      // An answer to an older change says nothing about the switch as it is now.
      if (request !== latest.current) return;
      setWanted(null);
      setOutcome(answer);
    });
  }

  const naming = title ? { 'aria-labelledby': `${id}-title` } : { 'aria-label': label };
  return (
    <section className={styles.section} {...naming} aria-busy={wanted !== null}>
      {title && <h3 id={`${id}-title`}>{title}</h3>}
      <label className={styles.option}>
        <input type="checkbox" checked={wanted ?? checked} aria-describedby={`${id}-hint`} onChange={(event) => change(event.target.checked)} />
        <span>{label}</span>
      </label>
      <p id={`${id}-hint`} className={styles.hint}>
        {hint}
      </p>
      <p className={styles.hint} role="status">
        {outcome.state === 'saved' ? t('settings.privacySaved') : null}
        {outcome.state === 'refused' ? t(outcome.wanted ? 'settings.privacyNotOn' : 'settings.privacyNotOff', { message: outcome.message }) : null}
      </p>
    </section>
  );
}
