import type { APIResponse, BrowserContext, Response } from '@playwright/test';

/**
 * Collects every Content-Security-Policy violation in the context's pages and frames, from the
 * start of their next load: the `securitypolicyviolation` events (reported to the test through a
 * binding, since the page's own scripts could not be trusted to keep a list) and Chromium's
 * console reports. Call before the pages to watch are loaded.
 */
export async function recordCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', ({ frame }, text: string) => {
    violations.push(`${frame.url()}: ${text}`);
  });
  // Playwright injects this itself: it runs before the page's scripts and is not subject to the CSP.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      void report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
    });
  });
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** The policy's directives, by name. */
export function cspDirectives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** The nonce a response's CSP allows scripts with. */
export function cspNonce(response: Response | APIResponse): string {
  const policy = response.headers()['content-security-policy'] ?? '';
  const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
  if (!nonce) throw new Error(`No nonce in the Content-Security-Policy: "${policy}"`);
  return nonce;
}
