import { useState } from 'react';
import { useBlockPending, useSafetyStore } from '@/lib/stores/safety-store';
import { useT } from '@/lib/i18n';
import { Modal } from '@/components/ui/modal';
import buttons from '@/components/ui/button.module.css';
import modal from '@/components/ui/modal.module.css';

interface Props {
  user: { id: number; username: string | null; avatar: string | null };
  /** Who, for the labels. */
  name: string;
  blocked: boolean;
  /** After a successful block (the conversation has left the list). */
  onBlocked?: () => void;
}

/** Block (after a confirmation that says what it does) or Unblock someone. */
export function BlockButton({ user, name, blocked, onBlocked }: Props) {
  const t = useT();
  const pending = useBlockPending(user.id);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function block() {
    setError(null);
    const result = await useSafetyStore.getState().block(user);
    if (!result.ok) return setError(result.error);
    setConfirming(false);
    onBlocked?.();
  }

  async function unblock() {
    setError(null);
    const result = await useSafetyStore.getState().unblock(user.id);
    if (!result.ok) setError(result.error);
  }

  if (blocked) {
    return (
      <>
        <button type="button" className={`${buttons.button} ${buttons.small}`} aria-label={t('safety.unblockUser', { name })} aria-busy={pending} disabled={pending} onClick={() => void unblock()}>
          {t('safety.unblock')}
        </button>
        {error ? <span role="alert">{t('safety.blockFailed', { message: error })}</span> : null}
      </>
    );
  }
  return (
    <>
      <button type="button" className={`${buttons.button} ${buttons.small}`} aria-label={t('safety.blockUser', { name })} onClick={() => setConfirming(true)}>
        {t('safety.block')}
      </button>
      {confirming ? (
        <Modal title={t('safety.blockConfirmTitle', { name })} onClose={() => setConfirming(false)}>
          <p>{t('safety.blockConfirmBody')}</p>
          <p className={modal.error} role="alert">
            {error ? t('safety.blockFailed', { message: error }) : ''}
          </p>
          <div className={modal.actions}>
            <button type="button" className={buttons.button} onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className={`${buttons.button} ${modal.danger}`} aria-busy={pending} disabled={pending} onClick={() => void block()}>
              {t('safety.blockConfirm')}
            </button>
          </div>
        </Modal>
      ) : null}
    </>
  );
}
