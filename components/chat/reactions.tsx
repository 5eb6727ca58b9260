import type { Reaction } from '@/lib/contract';
import { reactToMessage } from '@/lib/realtime/change-requests';
import { useT } from '@/lib/i18n';
import styles from './reactions.module.css';

interface Props {
  messageId: number;
  reactions: Reaction[];
  me: number | null;
  /** The other person's name, for "who reacted". */
  peerName: string;
  onFailed: (error: string) => void;
}

/**
 * The reactions under a message: each emoji with how many and who (in its label and tooltip);
 * pressing one adds or removes the user's own, as in every chat app.
 */
export function Reactions({ messageId, reactions, me, peerName, onFailed }: Props) {
  const t = useT();
  if (reactions.length === 0) return null;
  return (
    <ul className={styles.reactions}>
      {reactions.map(({ emoji, user_ids: userIds }) => {
        const mine = me !== null && userIds.includes(me);
        const names = userIds.map((id) => (id === me ? t('messageActions.you') : peerName)).join(', ');
        const label = t('messageActions.reactionBy', { emoji, count: userIds.length, names });
        return (
          <li key={emoji}>
            <button
              type="button"
              className={styles.reaction}
              aria-pressed={mine}
              aria-label={label}
              title={label}
              onClick={() =>
                void reactToMessage(messageId, emoji, !mine).then((answer) => {
                  if (!answer.ok) onFailed(answer.error);
                })
              }
            >
              <span aria-hidden="true">{emoji}</span> <span aria-hidden="true">{userIds.length}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
