// Parley's service worker (scope /): shows every notification, whether a Web Push brought it (no
// tab open) or a hidden tab handed it over, once per message and one per conversation; opens the
// conversation on click; keeps the app shell so an installed Parley opens offline.
// Plain JavaScript served as is from the origin root: no build step, and it can be read here.
// Never cached: /api (JSON with people's data), /socket.io, and any request carrying a token.
/* global self, caches */
'use strict';

const SHELL_CACHE = 'parley-shell-v1';
/** Pages kept for offline starts; a navigation anywhere else offline gets /main (its guard decides). */
const SHELL_PAGES = ['/main', '/account'];
const SHELL_ASSETS = ['/manifest.webmanifest', '/icon.svg', '/icons/icon-192.png', '/icons/icon-512.png', '/sounds/notification.wav'];
/** A navigation waits this long for the network before the cached page is shown (a server answers in well under it). */
const NAVIGATION_TIMEOUT_MS = 3000;
/** Messages already shown, so the push and a tab announcing the same message show it once. */
const RECENT_LIMIT = 200;
const recentlyShown = [];
// One notification decision at a time: a push and a tab's hand-over of the same message race.
let showing = Promise.resolve();

self.addEventListener('install', (event) => {
  event.waitUntil(precacheShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name.startsWith('parley-') && name !== SHELL_CACHE).map((name) => caches.delete(name)));
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

/** /main's page and the scripts and styles it loads, so the first offline start needs nothing else. */
async function precacheShell() {
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll(SHELL_ASSETS).catch(() => undefined);
  const response = await fetch('/main', { credentials: 'same-origin', cache: 'no-store' }).catch(() => null);
  if (!response || !response.ok) return;
  const html = await response.clone().text();
  await cache.put('/main', response);
  const assets = new Set();
  for (const match of html.matchAll(/(?:src|href)="(\/_next\/static\/[^"]+)"/g)) assets.add(match[1]);
  await Promise.all([...assets].map((url) => cache.add(url).catch(() => undefined)));
}

/**
 * Build files a page loaded before this worker controlled it (its language's texts, a chunk loaded
 * at once): kept too, or the first offline start would miss them. Only this origin's /_next/static/.
 */
async function cacheLoaded(urls) {
  const cache = await caches.open(SHELL_CACHE);
  const wanted = urls
    .map((url) => {
      try {
        return new URL(url, self.location.origin);
      } catch {
        return null;
      }
    })
    .filter((url) => url && url.origin === self.location.origin && url.pathname.startsWith('/_next/static/'))
    .slice(0, 200);
  await Promise.all(
    wanted.map(async (url) => {
      if (!(await cache.match(url.pathname))) await cache.add(url.pathname).catch(() => undefined);
    }),
  );
}

function isCacheable(request, url) {
  if (request.method !== 'GET' || url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith('/api/') || url.pathname === '/api' || url.pathname.startsWith('/socket.io/')) return false;
  if (request.headers.has('authorization')) return false;
  // React Server Component payloads (client navigations) depend on the router's state: network only.
  if (request.headers.has('rsc') || url.searchParams.has('_rsc')) return false;
  return true;
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (!isCacheable(request, url)) return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(event, url));
  } else if (url.pathname.startsWith('/_next/static/')) {
    event.respondWith(cacheFirst(request));
  } else if (SHELL_ASSETS.includes(url.pathname)) {
    event.respondWith(staleWhileRevalidate(request));
  }
});

/**
 * Network first, so a page always carries a fresh CSP nonce and the latest build; the cached copy
 * (by path, without the query) only when the network fails or is slower than NAVIGATION_TIMEOUT_MS.
 */
async function navigate(event, url) {
  const cache = await caches.open(SHELL_CACHE);
  const key = SHELL_PAGES.includes(url.pathname) ? url.pathname : null;
  const fromNetwork = (async () => {
    const response = (await event.preloadResponse) || (await fetch(event.request));
    if (key && response.ok && response.type === 'basic' && !response.redirected) await cache.put(key, response.clone());
    return response;
  })();
  const timeout = new Promise((resolve) => setTimeout(resolve, NAVIGATION_TIMEOUT_MS, null));
  try {
    const first = await Promise.race([fromNetwork, timeout]);
    if (first) return first;
  } catch {
    // Offline: the cached page below.
  }
  const cached = (key && (await cache.match(key, { ignoreVary: true }))) || (await cache.match('/main', { ignoreVary: true }));
  return cached || fromNetwork;
}

async function cacheFirst(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function staleWhileRevalidate(request) {
  const cache = await caches.open(SHELL_CACHE);
  const cached = await cache.match(request);
  const refreshed = fetch(request)
    .then(async (response) => {
      if (response.ok) await cache.put(request, response.clone());
      return response;
    })
    .catch(() => null);
  return cached || (await refreshed) || Response.error();
}

// --- Notifications -----------------------------------------------------------------------------

/**
 * Whether each tab says it is in view: the same signal it reports to the server, sent on every
 * change. A tab that has not said (or a worker restarted since) is taken at the browser's word.
 */
const reportedVisible = new Map();

/** A tab of ours is in view: the app itself shows the message (list, badge, title). */
async function anyWindowVisible() {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const id of reportedVisible.keys()) if (!windows.some((client) => client.id === id)) reportedVisible.delete(id);
  return windows.some((client) => (reportedVisible.has(client.id) ? reportedVisible.get(client.id) : client.visibilityState === 'visible'));
}

function isContent(value) {
  return (
    value &&
    typeof value.title === 'string' &&
    typeof value.body === 'string' &&
    typeof value.tag === 'string' &&
    typeof value.url === 'string' &&
    typeof value.message_id === 'number'
  );
}

/** Shows `content` unless a tab is in view or this message was shown already; resolves whether it showed. */
function show(content) {
  const decided = showing.then(async () => {
    if (!isContent(content) || recentlyShown.includes(content.message_id)) return false;
    if (await anyWindowVisible()) return false;
    const current = await self.registration.getNotifications({ tag: content.tag });
    if (current.some((notification) => notification.data && notification.data.message_id === content.message_id)) return false;
    recentlyShown.push(content.message_id);
    if (recentlyShown.length > RECENT_LIMIT) recentlyShown.shift();
    await self.registration.showNotification(content.title, {
      body: content.body,
      icon: content.icon,
      badge: '/icons/badge-96.png',
      tag: content.tag,
      // A newer message of the same conversation replaces the notification and alerts again.
      renotify: true,
      silent: Boolean(content.silent),
      data: { url: content.url, peer_id: content.peer_id, message_id: content.message_id },
    });
    return true;
  });
  showing = decided.catch(() => false);
  return decided;
}

self.addEventListener('push', (event) => {
  let content = null;
  try {
    content = event.data ? event.data.json() : null;
  } catch {
    content = null;
  }
  event.waitUntil(show(content));
});

// A hidden tab hands over the notification for a message it received; the answer says whether it
// was shown, so that tab (and only it) plays the sound.
self.addEventListener('message', (event) => {
  const data = event.data || {};
  if (data.type === 'visibility' && event.source) reportedVisible.set(event.source.id, Boolean(data.visible));
  if (data.type === 'cache-assets' && Array.isArray(data.urls)) event.waitUntil(cacheLoaded(data.urls));
  if (data.type !== 'notify') return;
  // The tab handing it over says it is hidden: known even if this worker was stopped and started
  // again since its last report (the browser stops an idle worker), which emptied the map.
  if (event.source && typeof data.visible === 'boolean') reportedVisible.set(event.source.id, data.visible);
  event.waitUntil(
    show(data.content).then((shown) => {
      if (event.source) event.source.postMessage({ type: 'notified', message_id: data.content && data.content.message_id, shown });
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const client = windows.find((candidate) => new URL(candidate.url).pathname.startsWith('/main')) || windows[0];
      if (client) {
        await client.focus();
        if (typeof data.peer_id === 'number') client.postMessage({ type: 'open-conversation', peer_id: data.peer_id });
        return;
      }
      await self.clients.openWindow(typeof data.url === 'string' ? data.url : '/main');
    })(),
  );
});
