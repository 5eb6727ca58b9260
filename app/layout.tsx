import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { nonceOf } from '@/lib/security/content-security-policy';
import { EARLY_REQUESTS_SCRIPT, FIRST_PAINT_SCRIPT, FIRST_PAINT_STYLE } from '@/lib/session/first-paint-script';
import './globals.css';

export const metadata: Metadata = {
  title: 'Parley',
  description: 'Follow people and talk with them in real time.',
  icons: { icon: '/icon.svg' },
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#0f1115' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request, never prerendered: each page carries its request's CSP nonce (proxy.ts),
  // which Next puts on its own scripts and we on the first-paint one.
  const nonce = nonceOf((await headers()).get('content-security-policy'));
  return (
    // The first-paint script marks <html> (and may set lang) before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Before any content: the marks must hide the sign-in screen from the first paint. */}
        <style>{FIRST_PAINT_STYLE}</style>
        {/* Constants of ours, no input in them; as children React would escape their quotes. Then,
            on a page of the main area, its first two requests, before the app's code arrives. */}
        {/* eslint-disable-next-line react/no-danger */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `${FIRST_PAINT_SCRIPT};${EARLY_REQUESTS_SCRIPT}` }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
