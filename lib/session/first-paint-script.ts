// The document's first-paint script and style (first-paint.ts explains the marks), rendered by
// the root layout with the request's CSP nonce. Kept out of the client bundle: only the server
// renders them. The script mirrors storage.ts (an empty value counts as none, a throwing
// localStorage as empty) and normalizeLanguage (i18n.ts); first-paint.test.ts holds them equal.
import { DEFAULT_LANGUAGE, LOCALE_STORAGE_KEY, SUPPORTED_LANGUAGES, TOKEN_STORAGE_KEY } from '@/lib/contract';

const OTHER_LANGUAGES = SUPPORTED_LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE);

export const FIRST_PAINT_SCRIPT =
  `(function(){try{var d=document.documentElement,s=window.localStorage;` +
  `if(s.getItem(${JSON.stringify(TOKEN_STORAGE_KEY)}))d.dataset.session="signed-in";` +
  `var l=(s.getItem(${JSON.stringify(LOCALE_STORAGE_KEY)})||"").trim().toLowerCase().split(/[-_]/)[0];` +
  `if(${JSON.stringify(OTHER_LANGUAGES)}.indexOf(l)>=0){d.dataset.locale="pending";d.lang=l}` +
  `}catch(e){}})()`;

export const FIRST_PAINT_STYLE =
  `[data-first-paint="cover"]{display:none}` +
  `html[data-session="signed-in"] [data-first-paint="screen"],html[data-locale="pending"] [data-first-paint="screen"]{display:none!important}` +
  `html[data-session="signed-in"] [data-first-paint="cover"],html[data-locale="pending"] [data-first-paint="cover"]{display:contents}`;
