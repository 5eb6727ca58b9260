import { closeConversation } from '@/lib/routing/conversation-route';
import { useT } from '@/lib/i18n';
import { EmptyState } from '@/components/ui/empty-state';
import { ChatIcon } from '@/components/ui/icons';
import buttons from '@/components/ui/button.module.css';
import styles from './conversation-not-found.module.css';

/** A conversation URL that names nobody: a wrong id, oneself, or an account that is gone. */
export function ConversationNotFound() {
  const t = useT();
  return (
    <section className={styles.notFound} aria-labelledby="conversation-not-found">
      <EmptyState icon={<ChatIcon />} title={t('thread.notFound')}>
        <p id="conversation-not-found" className="visually-hidden">
          {t('thread.notFound')}
        </p>
        <p>{t('thread.notFoundHint')}</p>
        <button type="button" className={buttons.button} onClick={closeConversation}>
          {t('thread.backToList')}
        </button>
      </EmptyState>
    </section>
  );
}
