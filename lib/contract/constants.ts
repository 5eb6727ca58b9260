/** SPEC §9: local storage keys and the token prefix. */
export const TOKEN_STORAGE_KEY = 'token';
export const LOCALE_STORAGE_KEY = 'locale';
export const TOKEN_PREFIX = 'Bearer';

/** SPEC §9: maximum client-side upload size, read as megabytes. */
export const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export const DEFAULT_LANGUAGE = 'en';
