import type { UserSummary } from '@/lib/contract';
import { useFollowView, usePeopleStore } from '@/lib/stores/people-store';
import { useT } from '@/lib/i18n';
import { FollowIcon, FollowingIcon } from '@/components/ui/icons';
import buttons from '@/components/ui/button.module.css';
import styles from './people.module.css';

interface Props {
  user: Pick<UserSummary, 'id' | 'is_following' | 'follows_you'>;
  /** Who, for the error message and the button's tooltip. */
  name: string;
  /** On a narrow screen, an icon instead of the word (a header with a name to keep readable). */
  compact?: boolean;
}

/**
 * Follow / Follow back / Unfollow, optimistic: the new state shows at once and the `followed`
 * answer confirms it (or the store rolls it back, and the reason shows under the button).
 */
export function FollowButton({ user, name, compact = false }: Props) {
  const t = useT();
  const { following, followsYou, pending, error } = useFollowView(user);
  const toggleFollow = usePeopleStore((state) => state.toggleFollow);

  const label = following ? t('people.unfollow') : followsYou ? t('people.followBack') : t('people.follow');
  // The visible word alone is ambiguous in a list of people: the accessible name says who.
  const fullLabel = following
    ? t('people.unfollowUser', { name })
    : followsYou
      ? t('people.followBackUser', { name })
      : t('people.followUser', { name });
  return (
    <span className={styles.follow}>
      <button
        type="button"
        className={`${buttons.button} ${buttons.small} ${following ? '' : buttons.primary} ${compact ? styles.compact : ''}`}
        aria-label={fullLabel}
        title={fullLabel}
        aria-busy={pending}
        disabled={pending}
        onClick={() => void toggleFollow(user.id)}
      >
        {compact ? (
          <>
            {following ? <FollowingIcon className={styles.followIcon} /> : <FollowIcon className={styles.followIcon} />}
            <span className={styles.followLabel}>{label}</span>
          </>
        ) : (
          label
        )}
      </button>
      {error ? (
        <span className={styles.followError} role="alert">
          {t('people.followFailed', { message: error })}
        </span>
      ) : null}
    </span>
  );
}

/** "Following" and "Follows you" chips: how a person relates to the signed-in user. */
export function FollowChips({ user }: { user: Pick<UserSummary, 'id' | 'is_following' | 'follows_you'> }) {
  const t = useT();
  const { following, followsYou } = useFollowView(user);
  if (!following && !followsYou) return null;
  return (
    <span className={styles.chips}>
      {following ? <span className={styles.chip}>{t('people.following')}</span> : null}
      {followsYou ? <span className={styles.chip}>{t('people.followsYou')}</span> : null}
    </span>
  );
}
