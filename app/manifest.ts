import type { MetadataRoute } from 'next';

/** The web app manifest (/manifest.webmanifest): what an installed Parley is called, opens and looks like. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: 'Parley',
    short_name: 'Parley',
    description: 'Follow people and talk with them in real time.',
    id: '/main',
    start_url: '/main',
    scope: '/',
    display: 'standalone',
    background_color: '#ffffff',
    theme_color: '#3559e0',
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
    ],
  };
}
