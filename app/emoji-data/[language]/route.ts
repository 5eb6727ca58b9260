// The emoji picker's data (components/chat/emoji-picker.tsx), served from this origin: the
// Content-Security-Policy lets the page fetch only from here, and no reader's browser should ask a
// CDN for it. English and French are Emojibase's sets; Spanish has only CLDR's.
import en from 'emoji-picker-element-data/en/emojibase/data.json';
import es from 'emoji-picker-element-data/es/cldr/data.json';
import fr from 'emoji-picker-element-data/fr/emojibase/data.json';
import { version } from 'emoji-picker-element-data/package.json';

const DATA: Record<string, string> = { en: JSON.stringify(en), es: JSON.stringify(es), fr: JSON.stringify(fr) };

export async function GET(_request: Request, { params }: { params: Promise<{ language: string }> }) {
  const { language } = await params;
  const body = Object.hasOwn(DATA, language) ? DATA[language] : undefined;
  if (body === undefined) return Response.json({ msg: 'No emoji data in that language.' }, { status: 404 });
  // The picker asks with HEAD first and keeps its copy (IndexedDB) while the ETag stays the same.
  return new Response(body, {
    headers: { 'content-type': 'application/json', etag: `"${language}-${version}"`, 'cache-control': 'public, max-age=86400' },
  });
}
