import styles from './avatar.module.css';

interface Props {
  name: string;
  src: string | null;
  size?: number;
}

/** Initials stand in when there is no photo, so every person has a recognisable face. */
export function Avatar({ name, src, size = 40 }: Props) {
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
  const dimensions = { width: size, height: size };

  if (src) {
    // Avatars come from the social provider's CDN: plain <img> avoids proxying them through Next.
    // eslint-disable-next-line @next/next/no-img-element
    return <img className={styles.avatar} src={src} alt="" {...dimensions} referrerPolicy="no-referrer" />;
  }
  return (
    <span className={styles.avatar} style={{ ...dimensions, fontSize: size * 0.4 }} aria-hidden="true">
      {initials || '?'}
    </span>
  );
}
