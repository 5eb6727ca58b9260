import { useState } from 'react';
import { attachmentUrl } from '@/lib/api/attachment-url';
import styles from './avatar.module.css';

interface Props {
  name: string;
  src: string | null;
  size?: number;
}

/**
 * A person's photo, or their initials when there is none (or it fails to load), so every person
 * has a recognisable face. A photo the user uploaded is one of their uploads (/api/uploads/…),
 * on the API's origin; a provider's is any https URL.
 */
export function Avatar({ name, src, size = 40 }: Props) {
  // The photo that failed, so that a new one is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('');
  const dimensions = { width: size, height: size };

  if (src && failed !== src) {
    // Plain <img>: avatars come from the providers' CDNs or our uploads, never through Next's image proxy.
    // eslint-disable-next-line @next/next/no-img-element
    return <img className={styles.avatar} src={attachmentUrl(src)} alt="" {...dimensions} referrerPolicy="no-referrer" onError={() => setFailed(src)} />;
  }
  return (
    <span className={styles.avatar} style={{ ...dimensions, fontSize: size * 0.4 }} aria-hidden="true">
      {initials || '?'}
    </span>
  );
}
