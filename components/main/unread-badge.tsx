import { useUnreadCount } from '@/lib/stores/counter-store';
import { selectMutedUnread, useConversationsStore } from '@/lib/stores/conversations-store';
import { useT } from '@/lib/i18n';
import styles from './header.module.css';

/**
 * The unread total (docs/CLIENT-RULES.md, "Socket events"). The digits are for the eye (and the end-to-end suite's
 * `unread-count`); assistive technology reads the sentence with the right plural. When every
 * unread message is in a muted conversation the pill is grey: counted, but not calling.
 */
export function UnreadBadge() {
  const t = useT();
  const unread = useUnreadCount();
  const muted = useConversationsStore(selectMutedUnread);
  const label = t('header.unread', { count: unread });
  return (
    <span className={styles.unread} data-empty={unread === 0} data-quiet={unread > 0 && unread <= muted} title={label}>
      <span aria-hidden="true" data-testid="unread-count">
        {unread}
      </span>
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
