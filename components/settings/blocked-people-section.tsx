import { useEffect, useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useSafetyStore } from '@/lib/stores/safety-store';
import { useT } from '@/lib/i18n';
import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/spinner';
import { BlockButton } from '@/components/people/block-button';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';
import styles from './settings.module.css';

/** The people the user blocked, each with Unblock. */
export function BlockedPeopleSection() {
  const t = useT();
  const id = useId();
  const { blocked, status } = useSafetyStore(useShallow((state) => ({ blocked: state.blocked, status: state.blockedStatus })));

  useEffect(() => {
    void useSafetyStore.getState().loadBlocked();
  }, []);

  let body;
  if (status === 'error') {
    body = (
      <p className={modal.error} role="alert">
        {t('privacy.blockedFailed')}{' '}
        <button type="button" className={`${buttons.button} ${buttons.small}`} onClick={() => void useSafetyStore.getState().loadBlocked()}>
          {t('common.retry')}
        </button>
      </p>
    );
  } else if (status !== 'ready' && blocked.length === 0) {
    body = <Spinner label={t('common.loading')} />;
  } else if (blocked.length === 0) {
    body = <p className={styles.hint}>{t('privacy.noneBlocked')}</p>;
  } else {
    body = (
      <ul className={styles.blocked} aria-labelledby={`${id}-title`}>
        {blocked.map((person) => {
          const name = person.username || t('common.unknownUser');
          return (
            <li key={person.id} className={styles.blockedRow}>
              <Avatar name={name} src={person.avatar} size={32} />
              <span className={styles.blockedName}>{name}</span>
              <BlockButton user={person} name={name} blocked />
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <section className={styles.section} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('privacy.blockedPeople')}</h3>
      <p className={styles.hint}>{t('privacy.blockedHint')}</p>
      {body}
    </section>
  );
}
