// The document's first-paint script and style (first-paint.ts explains the marks), rendered by
// the root layout with the request's CSP nonce. Kept out of the client bundle: only the server
// renders them. The script mirrors storage.ts (an empty value counts as none, a throwing
// localStorage as empty) and preferredLanguage (i18n.ts: the stored locale, else the browser's
// languages); first-paint.test.ts holds them equal.
import { publicConfig } from '@/lib/config/public';
import { DEFAULT_LANGUAGE, LOCALE_STORAGE_KEY, SUPPORTED_LANGUAGES, TOKEN_STORAGE_KEY } from '@/lib/contract';

const DEFAULT = JSON.stringify(DEFAULT_LANGUAGE);

export const FIRST_PAINT_SCRIPT =
  `(function(){var d=document.documentElement,l=null,` +
  `b=function(v){v=(v||"").trim().toLowerCase().split(/[-_]/)[0];return ${JSON.stringify(SUPPORTED_LANGUAGES)}.indexOf(v)>=0?v:null};` +
  `try{var s=window.localStorage;` +
  `if(s.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)}))d.dataset.session="signed-in";` +
  `l=s.getItem(${JSON.stringify(LOCALE_STORAGE_KEY)})||null}catch(e){}` +
  // No stored locale (a first visit): the first of the browser's languages that Parley has.
  `try{if(l)l=b(l)||${DEFAULT};else{var n=navigator.languages&&navigator.languages.length?navigator.languages:[navigator.language];` +
  `l=${DEFAULT};for(var i=0;i<n.length;i++){if(b(n[i])){l=b(n[i]);break}}}` +
  `if(l!==${DEFAULT}){d.dataset.locale="pending";d.lang=l}}catch(e){}})()`;

/** The paths, under the API's address, of the main area's first two requests. */
export const EARLY_PATHS = ['accounts/info', 'c'] as const;

/** What EARLY_REQUESTS_SCRIPT leaves for the API client: the Authorization it sent, and each answer by its path under the API. */
export interface EarlyRequests {
  authorization: string;
  responses: Partial<Record<string, Promise<Response>>>;
}

/**
 * The main area's first two requests, started before the app's code arrives: on a page under
 * /main with a stored token (an empty one counts as none), with the stored value as the
 * Authorization header, as the client's token hook sends it; left on `window.__parleyEarly` for
 * the API client to take over (lib/api/early-requests.ts). A failure is left for the client too,
 * never an unhandled rejection.
 *
 * Then, in a task of its own while the app's code is still downloading, it formats a date and a
 * number in the page's language: the browser's first Intl formatter loads its locale data, 25–50 ms
 * of the main thread on a slow machine that would otherwise fall in the list's first render (its
 * times and the unread count). BENCHMARKS.md, "The main area's first screen: the critical path".
 */
export const EARLY_REQUESTS_SCRIPT =
  `(function(){try{var t=window.localStorage.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)});` +
  `if(!t||!/^\\/main(\\/|$)/.test(location.pathname))return;` +
  `var b=new URL(${JSON.stringify(publicConfig.apiUrl)},location.origin).href.replace(/\\/?$/,"/"),r={};` +
  `${JSON.stringify(EARLY_PATHS)}.forEach(function(p){var f=fetch(b+p,{headers:{Authorization:t}});f.catch(function(){});r[p]=f});` +
  `window.__parleyEarly={authorization:t,responses:r};` +
  `var g=document.documentElement.lang||${DEFAULT};` +
  `setTimeout(function(){try{new Intl.DateTimeFormat(g).format(0);new Intl.NumberFormat(g).format(0)}catch(e){}},0)}catch(e){}})()`;

export const FIRST_PAINT_STYLE =
  `[data-first-paint="cover"]{display:none}` +
  `html[data-session="signed-in"] [data-first-paint="screen"],html[data-locale="pending"] [data-first-paint="screen"]{display:none!important}` +
  `html[data-session="signed-in"] [data-first-paint="cover"],html[data-locale="pending"] [data-first-paint="cover"]{display:contents}`;
