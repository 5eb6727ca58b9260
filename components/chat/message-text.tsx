import { find } from 'linkifyjs';
import type { ReactNode } from 'react';

const SAFE_SCHEMES = /^(https?:|mailto:)/i;

export interface TextPart {
  text: string;
  /** Where the part links to: only http(s) and mailto; everything else stays text. */
  href?: string;
}

/**
 * A message's text cut into plain parts and links, as linkifyjs finds them (a bare "example.org"
 * links to http://example.org, an address to mailto:). Never HTML: the parts become React text
 * and <a> elements.
 */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const link of find(text)) {
    if (!SAFE_SCHEMES.test(link.href)) continue;
    if (link.start > at) parts.push({ text: text.slice(at, link.start) });
    parts.push({ text: text.slice(link.start, link.end), href: link.href });
    at = link.end;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

/** The text with its links clickable: a new tab, no opener, no referrer, no endorsement. */
export function MessageText({ text, className }: { text: string; className?: string }) {
  const children: ReactNode[] = linkParts(text).map((part, index) =>
    part.href ? (
      <a key={index} href={part.href} target="_blank" rel="noopener noreferrer nofollow">
        {part.text}
      </a>
    ) : (
      part.text
    ),
  );
  return <p className={className}>{children}</p>;
}
