// `npm run dev`: the whole product on one machine, no account anywhere:
// the Firebase Auth emulator (accounts kept under .data/), then the API + Socket.IO + Next server.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { startAuthEmulator } from './auth-emulator.mjs';

const EMULATOR_HOST = '127.0.0.1:9099';
const EMULATOR_DATA = '.data/auth-emulator';

mkdirSync('.data', { recursive: true });
const persistence = existsSync(EMULATOR_DATA)
  ? ['--import', EMULATOR_DATA, '--export-on-exit']
  : ['--export-on-exit', EMULATOR_DATA];

const children = [];
let stopping = false;

function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGINT');
  // The emulator writes its export on SIGINT; give it a moment before leaving.
  Promise.all(children.map((child) => child.exitCode === null && new Promise((r) => child.once('exit', r)))).then(
    () => process.exit(code),
  );
  setTimeout(() => process.exit(code), 10_000).unref();
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

try {
  const emulator = await startAuthEmulator({ host: EMULATOR_HOST, config: 'firebase.json', extraArgs: persistence });
  if (emulator) {
    children.push(emulator);
    emulator.once('exit', (code) => !stopping && (console.error(`Auth emulator exited (${code}).`), stop(1)));
  } else {
    console.log(`Using the Auth emulator already running on ${EMULATOR_HOST}.`);
  }
  const server = spawn('node_modules/.bin/tsx', ['watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development' },
  });
  children.push(server);
  server.once('exit', (code) => !stopping && stop(code ?? 1));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  stop(1);
}
