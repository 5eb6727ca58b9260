/*
 * Offline stand-in for https://apis.google.com/js/api.js (the "gapi" loader), served by
 * e2e/support/gapi.ts through Playwright routing. Test-only; plain browser script, no imports.
 *
 * Implements just the part of gapi.iframes that signInWithPopup needs against the Auth emulator:
 *   - app page (Firebase SDK): gapi.load('gapi.iframes') -> getContext().open({url: <emulator>/emulator/auth/iframe})
 *       -> iframe.restyle / ping / register('authEvent') / send('webStorageSupport')
 *   - emulator helper iframe (loads this same file): getContext().getParentIframe()
 *       -> register('webStorageSupport') / send('authEvent')
 * Both ends are this script, talking over window.postMessage with a private envelope.
 * The emulator popup (/emulator/auth/handler) posts its result straight into the helper
 * iframe via window.opener.frames[i].postMessage; that part needs nothing from us.
 */
(() => {
  'use strict';

  // The same file runs in the app page and in the emulator iframe; install once per window.
  if (window.gapi && window.gapi.__standIn) return;

  // Tag on every message we post, so other postMessage traffic (e.g. the popup's 'sendAuthEvent') is ignored.
  const TAG = '__gapiStandIn';
  // Reserved message name for ping(); answered by the stand-in itself, not by a registered handler.
  const PING = '__ping';

  // gapi passes messages through a filter; the SDK and the emulator only use this allow-all one.
  const CROSS_ORIGIN_IFRAMES_FILTER = () => true;

  // Handler/callback exceptions stay inside gapi (the SDK's webStorageSupport callback always throws after answering).
  function safeCall(fn, arg) {
    try {
      return fn(arg);
    } catch (e) {
      console.debug('[gapi stand-in] callback threw (swallowed, as gapi does):', String(e));
      return undefined;
    }
  }

  /** One end of a postMessage channel: the iframe object open() yields, or getParentIframe() inside the iframe. */
  class Iframe {
    constructor(getTargetWindow, targetOrigin, el) {
      this._getTarget = getTargetWindow; // lazy: contentWindow exists only once the <iframe> is attached
      this._origin = targetOrigin; // postMessage target origin and accepted sender origin ('*' = unknown)
      this._el = el || null; // the <iframe> element, on the app side
      this._handlers = new Map(); // register()ed handlers by message name
      this._inbox = new Map(); // calls that arrived before their handler was registered, replayed by register()
      this._outbox = []; // posts made before the peer said hello, flushed on hello
      this._ready = false; // the peer's stand-in has loaded and is listening
      this._pending = new Map(); // reply callbacks by call id
      this._nextId = 1;
    }

    // Post now if the peer is listening, else queue (the iframe page may still be loading).
    _post(msg) {
      const tagged = { ...msg, [TAG]: true };
      if (!this._ready) {
        this._outbox.push(tagged);
        return;
      }
      this._getTarget()?.postMessage(tagged, this._origin);
    }

    // Announce ourselves directly (bypassing the outbox); the peer answers with an ack hello.
    _hello() {
      this._getTarget()?.postMessage({ kind: 'hello', ack: false, [TAG]: true }, this._origin);
    }

    // Only trust messages from the expected window (and origin, when known).
    _accepts(e) {
      return e.source === this._getTarget() && (this._origin === '*' || e.origin === this._origin);
    }

    _onMessage(msg) {
      if (msg.kind === 'hello') {
        // Peer loaded: ack its hello once (so it can flush too), then flush our queue.
        const first = !this._ready;
        this._ready = true;
        if (first && !msg.ack) this._post({ kind: 'hello', ack: true });
        const queued = this._outbox.splice(0);
        queued.forEach((m) => this._post(m));
      } else if (msg.kind === 'call') {
        if (msg.name === PING) this._reply(msg.id, true);
        else if (this._handlers.has(msg.name)) this._dispatch(msg);
        // Keep calls for handlers registered later: the emulator iframe sends its first authEvent before the SDK registers.
        else this._inbox.set(msg.name, [...(this._inbox.get(msg.name) || []), msg]);
      } else if (msg.kind === 'reply') {
        const cb = this._pending.get(msg.id);
        this._pending.delete(msg.id);
        if (cb) cb(msg.results);
      }
    }

    // Run the handler (value or promise) and reply with gapi's results array (one entry per responding frame).
    _dispatch(msg) {
      const handler = this._handlers.get(msg.name);
      Promise.resolve(safeCall(handler, msg.data)).then((result) => this._reply(msg.id, result));
    }

    _reply(id, result) {
      this._post({ kind: 'reply', id, results: [result === undefined ? null : result] });
    }

    // gapi Iframe.register(name, handler, filter): the handler's return value is the reply.
    register(name, handler) {
      this._handlers.set(name, handler);
      const queued = this._inbox.get(name) || [];
      this._inbox.delete(name);
      queued.forEach((msg) => this._dispatch(msg));
    }

    // gapi Iframe.unregister(name).
    unregister(name) {
      this._handlers.delete(name);
    }

    // gapi Iframe.send(name, data, callback, filter): callback gets the results array; also returned as a promise.
    send(name, data, callback) {
      return new Promise((resolve) => {
        const id = this._nextId++;
        this._pending.set(id, (results) => {
          if (callback) safeCall(callback, results);
          resolve(results);
        });
        this._post({ kind: 'call', id, name, data });
      });
    }

    // gapi Iframe.ping(callback): resolves once the other side's gapi answers; the SDK's "iframe loaded" check.
    ping(callback, data) {
      return this.send(PING, data === undefined ? null : data, callback);
    }

    // gapi Iframe.restyle(style): the SDK only sends {setHideOnLeave: false}, meaningless for a hidden iframe.
    restyle(style, callback) {
      if (callback) safeCall(callback, [true]);
      return Promise.resolve([true]);
    }

    // Real gapi accessors, for debugging.
    getIframeEl() {
      return this._el;
    }
    getWindow() {
      return this._getTarget();
    }
  }

  // All channels of this window; one listener routes each message to its channel.
  const channels = [];
  window.addEventListener('message', (e) => {
    const msg = e.data;
    if (!msg || typeof msg !== 'object' || msg[TAG] !== true) return;
    const channel = channels.find((c) => c._accepts(e));
    if (channel) channel._onMessage(msg);
  });

  let parentIframe = null;

  const context = {
    // gapi Context.open(options, cb): make the <iframe>; resolves to cb's (possibly async) result, else the iframe.
    open(options, callback) {
      const el = document.createElement('iframe');
      for (const [key, value] of Object.entries(options.attributes || {})) {
        if (key === 'style') Object.assign(el.style, value);
        else el.setAttribute(key, String(value));
      }
      // Like real gapi, pass the parent's origin in the fragment (the emulator page only reads location.search).
      const url = new URL(options.url, location.href);
      el.src = `${url.href}${url.hash ? '&' : '#'}parent=${encodeURIComponent(location.origin)}`;
      const iframe = new Iframe(() => el.contentWindow, url.origin, el);
      channels.push(iframe);
      // The emulator popup finds this iframe through window.opener.frames, so it must be a direct frame of the page.
      (options.where || document.body).appendChild(el);
      return Promise.resolve(callback ? callback(iframe) : undefined).then((r) => (r === undefined ? iframe : r));
    },

    // gapi Context.getParentIframe(): the emulator iframe's handle on the app page that embedded it.
    getParentIframe() {
      if (!parentIframe) throw new Error('[gapi stand-in] getParentIframe() called outside an iframe');
      return parentIframe;
    },
  };

  // Inside an iframe: connect to the parent and say hello, so the parent releases its queued ping/sends.
  if (window.parent !== window) {
    const match = /[#&]parent=([^&]*)/.exec(location.hash);
    parentIframe = new Iframe(() => window.parent, match ? decodeURIComponent(match[1]) : '*');
    channels.push(parentIframe);
    parentIframe._hello();
  }

  const MODULES = new Set(['gapi.iframes']);

  window.gapi = {
    __standIn: true,
    // gapi.load(names, callbackOrConfig): only 'gapi.iframes' exists, already "loaded"; call back async like gapi.
    load(names, config) {
      const opts = typeof config === 'function' ? { callback: config } : config || {};
      const ok = String(names)
        .split(':')
        .every((n) => MODULES.has(n));
      setTimeout(() => {
        if (ok) opts.callback?.();
        else (opts.onerror || opts.ontimeout)?.();
      }, 0);
    },
    iframes: {
      // The SDK checks gapi.iframes.Iframe to skip gapi.load on later sign-ins.
      Iframe,
      CROSS_ORIGIN_IFRAMES_FILTER,
      getContext: () => context,
    },
  };

  // api.js reports readiness via ?onload=<global fn> (how the SDK loads it) and window.gapi_onload (the emulator iframe).
  let onloadName = null;
  try {
    onloadName = new URL(document.currentScript.src).searchParams.get('onload');
  } catch {
    onloadName = null;
  }
  setTimeout(() => {
    if (onloadName && typeof window[onloadName] === 'function') window[onloadName]();
    if (typeof window.gapi_onload === 'function') window.gapi_onload();
  }, 0);
})();
