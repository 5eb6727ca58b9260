// Our package registry serves only the Linux builds of some platform-specific optional packages
// (@next/swc-darwin-*, @unrs/resolver-binding-win32-*, …). `npm install` then leaves them out of
// package-lock.json, and `npm ci` refuses a lockfile that misses a declared optional dependency.
// This adds the entries a complete lockfile would have, with the os/cpu/libc fields that make npm
// skip them on other platforms. Run it after `npm install` changes the lockfile.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCKFILE = 'package-lock.json';
const OSES = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix'];
const CPUS = ['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64', 'mips64el'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((token) => OSES.includes(token));
  const cpu = tokens.find((token) => CPUS.includes(token));
  if (!os || !cpu) return null;
  const libc = os === 'linux' ? (tokens.includes('musl') || tokens.includes('musleabihf') ? 'musl' : 'glibc') : null;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

const lock = JSON.parse(readFileSync(LOCKFILE, 'utf8'));
const added = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const installedAt = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (lock.packages[installedAt] || lock.packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    const version = range.replace(/^[\^~=]/, '');
    if (!platform || !/^\d+\.\d+\.\d+/.test(version)) continue;
    lock.packages[`node_modules/${name}`] = { version, optional: true, ...platform };
    added.push(`${name}@${version}`);
  }
}

lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(LOCKFILE, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `Added ${added.length} platform entries:\n  ${added.join('\n  ')}` : 'Lockfile already complete.');
