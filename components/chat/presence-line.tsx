import { useLanguage, useT } from '@/lib/i18n';
import { usePeerPresence } from '@/lib/stores/presence-store';
import { useIsTyping } from '@/lib/stores/typing-store';
import { presenceText } from './presence-format';
import { useNow } from './use-now';
import styles from './presence-line.module.css';

/** Refreshes "Last seen 5 min. ago" often enough that it never reads a minute behind for long. */
const REFRESH_MS = 30_000;

/**
 * Under the name in a conversation's header: "Ada is typing…", else "Online" or when they were
 * last seen, else nothing (hidden, or not shared with the user). Only typing is announced to
 * screen readers: presence changes and the ticking "last seen" would be noise.
 */
export function PresenceLine({ peerId, name }: { peerId: number; name: string }) {
  const t = useT();
  const language = useLanguage();
  const now = useNow(REFRESH_MS);
  const typing = useIsTyping(peerId);
  const text = presenceText(usePeerPresence(peerId), now, language);

  return (
    <p className={styles.presence} data-online={text?.key === 'presence.online'}>
      <span role="status">{typing ? t('presence.typing', { name }) : ''}</span>
      {!typing && text ? <span>{t(text.key, text)}</span> : null}
    </p>
  );
}
