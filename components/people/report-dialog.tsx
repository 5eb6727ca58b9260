import { useId, useState, type FormEvent } from 'react';
import { REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '@/lib/contract';
import { useSafetyStore, type ReportTarget } from '@/lib/stores/safety-store';
import { useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';
import styles from './people.module.css';

interface Props {
  target: ReportTarget;
  /** Whose message, or who: for the title. */
  name: string;
  onClose: () => void;
}

/** Report a message or a person: a reason from a short list, optional details, sent to the moderators. */
export function ReportDialog({ target, name, onClose }: Props) {
  const t = useT();
  const id = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [details, setDetails] = useState('');
  const [state, setState] = useState<{ status: 'editing' | 'sending' | 'sent' } | { status: 'failed'; error: string }>({ status: 'editing' });
  const isMessage = 'messageId' in target;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason) return;
    setState({ status: 'sending' });
    const result = await useSafetyStore.getState().report(target, reason, details);
    setState(result.ok ? { status: 'sent' } : { status: 'failed', error: result.error });
  }

  const title = isMessage ? t('safety.reportMessageTitle', { name }) : t('safety.reportUserTitle', { name });
  if (state.status === 'sent') {
    return (
      <Modal title={title} onClose={onClose}>
        <p role="status">{t('safety.reportSent')}</p>
        <div className={modal.actions}>
          <button type="button" className={`${buttons.button} ${buttons.primary}`} onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title={title} onClose={onClose}>
      <form onSubmit={(event) => void submit(event)}>
        <fieldset className={styles.reasons}>
          <legend>{t('safety.reportReason')}</legend>
          {REPORT_REASONS.map((option) => (
            <label key={option} className={styles.reason}>
              <input type="radio" name={`${id}-reason`} value={option} checked={reason === option} onChange={() => setReason(option)} />
              <span>{t(`safety.reasons.${option}`)}</span>
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-details`} className={styles.detailsLabel}>
          {t('safety.reportDetails')}
        </label>
        <textarea
          id={`${id}-details`}
          className={styles.details}
          rows={3}
          maxLength={REPORT_DETAILS_MAX}
          value={details}
          onChange={(event) => setDetails(event.target.value)}
        />
        <p className={modal.error} role="alert">
          {state.status === 'failed' ? t('safety.reportFailed', { message: state.error }) : ''}
        </p>
        <div className={modal.actions}>
          <button type="button" className={buttons.button} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className={`${buttons.button} ${buttons.primary}`} disabled={!reason || state.status === 'sending'} aria-busy={state.status === 'sending'}>
            {t('safety.reportSend')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
