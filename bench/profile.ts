// Summarises a V8 .cpuprofile (node --cpu-prof): self time per function, summed over the samples.
// `node --import tsx bench/profile.ts <file-or-dir>` prints it for a profile taken by hand too.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  file: string;
  durationMs: number;
  /** Share of the wall time the process was idle (waiting on I/O). */
  idlePercent: number;
  top: { name: string; location: string; selfMs: number; selfPercent: number; busyPercent: number }[];
  /** Self time by package or area (node_modules/<pkg>, server/, node:internal, ...). */
  byArea: { area: string; selfMs: number; busyPercent: number }[];
}

const shortUrl = (url: string) => {
  const path = url.replace(/^file:\/\//, '');
  const inPackage = /^.*\/node_modules\/(.*)$/.exec(path);
  return inPackage ? `node_modules/${inPackage[1]}` : path.replace(/^.*\/(server|lib)\//, '$1/');
};

function areaOf(url: string, name: string): string {
  if (!url) return name.startsWith('(') ? name : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node: internals';
  if (/\/(server|lib)\//.test(url) || url.endsWith('.mjs')) return 'parley (bundle)';
  return url;
}

export async function summariseProfile(file: string): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = (profile.endTime - profile.startTime) / 1000;
  const functions = new Map<string, { name: string; location: string; selfMs: number }>();
  const areas = new Map<string, number>();
  let idle = 0;
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    const selfMs = micros / 1000;
    const name = frame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idle += selfMs;
      continue;
    }
    const location = frame.url ? `${shortUrl(frame.url)}:${frame.lineNumber + 1}` : '';
    const key = `${name}@${location}`;
    const entry = functions.get(key) ?? { name, location, selfMs: 0 };
    entry.selfMs += selfMs;
    functions.set(key, entry);
    const area = areaOf(frame.url, name);
    areas.set(area, (areas.get(area) ?? 0) + selfMs);
  }
  const busy = Math.max(1, total - idle);
  const pct = (value: number, of: number) => Math.round((value / of) * 1000) / 10;
  return {
    file,
    durationMs: Math.round(total),
    idlePercent: pct(idle, total),
    top: [...functions.values()]
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, 30)
      .map((entry) => ({ ...entry, selfMs: Math.round(entry.selfMs), selfPercent: pct(entry.selfMs, total), busyPercent: pct(entry.selfMs, busy) })),
    byArea: [...areas.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([area, selfMs]) => ({ area, selfMs: Math.round(selfMs), busyPercent: pct(selfMs, busy) })),
  };
}

/** The newest .cpuprofile in a directory (or the file itself). */
export async function summariseProfiles(fileOrDir: string): Promise<ProfileSummary> {
  if (fileOrDir.endsWith('.cpuprofile')) return summariseProfile(fileOrDir);
  const files = (await readdir(fileOrDir)).filter((name) => name.endsWith('.cpuprofile')).sort();
  const last = files.at(-1);
  if (!last) throw new Error(`no .cpuprofile in ${fileOrDir}`);
  return summariseProfile(path.join(fileOrDir, last));
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  const summary = await summariseProfiles(process.argv[2] ?? '.');
  console.log(`${summary.file}: ${summary.durationMs} ms, idle ${summary.idlePercent}%`);
  for (const row of summary.top) console.log(`${String(row.busyPercent).padStart(5)}% of busy  ${row.name}  ${row.location}`);
  console.log('by area:');
  for (const row of summary.byArea) console.log(`${String(row.busyPercent).padStart(5)}%  ${row.area}`);
}
