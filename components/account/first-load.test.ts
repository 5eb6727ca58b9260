// The sign-in page's first load is a small page (BENCHMARKS.md has its budget). Firebase, the API client, the socket
// and the stores come when a sign-in starts (a dynamic import), never with the page.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enSignIn } from '@/lib/i18n/locales/en-sign-in';
import { staticImportGraph } from '@/lib/testing/import-graph';

describe('/account first load', () => {
  const graph = staticImportGraph('app/layout.tsx', 'app/(session)/layout.tsx', 'app/(session)/account/page.tsx');

  it('imports no heavy package at load time', () => {
    for (const heavy of ['firebase', 'socket.io-client', 'ky', 'zustand', 'react-virtuoso']) {
      expect(graph.packages, heavy).not.toContain(heavy);
    }
  });

  it('reaches neither the API client, the socket, the stores nor the sign-in flow', () => {
    const files = [...graph.files];
    expect(files.filter((file) => /^lib\/(api|socket|stores|realtime|outbox)\//.test(file) || file.startsWith('lib/lifecycle/sign-in.ts'))).toEqual([]);
    // Nor the table of sign-in failures: it comes when one happens.
    expect(files).not.toContain('lib/firebase/sign-in-errors.ts');
  });

  it('has the sign-in screen’s English only, not the rest of it nor other languages', () => {
    // Every language is in parts (en-main.ts, es-sign-in.ts…): none but English's sign-in part may come.
    expect([...graph.files].filter((file) => file.startsWith('lib/i18n/locales/'))).toEqual(['lib/i18n/locales/en-sign-in.ts']);
  });

  it('has every text its code asks for by key: the page shows no key before the rest of English is in', () => {
    const asked = [...graph.files]
      .filter((file) => /\.tsx?$/.test(file))
      .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([\w.]+)'/g)].map((match) => match[1]!));
    expect(asked).toContain('account.signInTitle');
    const missing = asked.filter((key) => {
      const [section = '', leaf = ''] = key.split('.');
      const texts: Record<string, unknown> = (enSignIn as Record<string, Record<string, unknown>>)[section] ?? {};
      return typeof texts[leaf] !== 'string' && typeof texts[`${leaf}_other`] !== 'string';
    });
    expect(missing).toEqual([]);
  });

  it('still has the screen itself (the graph is followed)', () => {
    expect(graph.files).toContain('components/account/account-screen.tsx');
    expect(graph.files).toContain('lib/i18n/i18n.ts');
  });
});
