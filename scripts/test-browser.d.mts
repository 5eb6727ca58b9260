export const HEADLESS_SHELL: string;
export const FULL_CHROMIUM: string;
export function fullChromium(options?: { root?: string }): string | undefined;
export function e2eChromium(options?: { root?: string; headed?: boolean }): string | undefined;
