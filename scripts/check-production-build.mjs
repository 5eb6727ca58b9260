// Builds the frontend the way production does (no emulator variables) and checks that the
// emulator-only test-account sign-in is not in what browsers download (docs/DECISIONS.md, "Test accounts"; emulator tokens
// are unsigned, so that path must not exist outside development).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const distDir = '.next';
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !key.includes('AUTH_EMULATOR') && key !== 'NEXT_DIST_DIR'),
);
execFileSync('node_modules/.bin/next', ['build'], {
  stdio: 'inherit',
  env: { ...env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', PARLEY_BUILD_SKIP_TYPECHECK: '1' },
});

// Strings that only the test-account path contains: the form's button and the fake credential.
const forbidden = ['Sign in with test account', 'email_verified'];
// Control: text the sign-in screen always ships, so a scan of the wrong files cannot pass.
const required = 'Continue with Google';

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.name.endsWith('.js')) yield path;
  }
}

let scanned = 0;
let control = false;
const found = [];
for (const file of files(join(distDir, 'static'))) {
  scanned += 1;
  const source = readFileSync(file, 'utf8');
  for (const text of forbidden) if (source.includes(text)) found.push(`${file}: "${text}"`);
  control ||= source.includes(required);
}

if (!control) throw new Error(`"${required}" not found under ${distDir}/static: the scan is not looking at the app.`);
if (found.length > 0) {
  console.error('The production build ships emulator-only code:\n' + found.join('\n'));
  process.exit(1);
}
console.log(`Production build: ${scanned} scripts scanned, no emulator-only code shipped.`);
