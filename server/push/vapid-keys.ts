// The development machine's VAPID pair: generated once and kept in DATA_DIR, so subscriptions
// made yesterday still work after a restart. Production passes its pair in the environment.
import { randomUUID } from 'node:crypto';
import { chmod, link, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import webPush from 'web-push';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../security/private-files';
import { DEVELOPMENT_VAPID_SUBJECT, vapidKeyProblems, type VapidKeys } from './push-settings';

export const VAPID_KEYS_FILE = 'vapid-keys.json';

/**
 * The pair in `<dataDir>/vapid-keys.json`, made when the file does not exist yet: only the
 * server's own user may read the private key (file 0600 in a 0700 folder, as all our data).
 */
export async function loadOrCreateVapidKeys(dataDir: string): Promise<VapidKeys> {
  const file = path.join(dataDir, VAPID_KEYS_FILE);
  const stored = await readKeys(file);
  if (stored) return stored;
  await ensurePrivateDir(dataDir);
  const generated = webPush.generateVAPIDKeys();
  const keys: VapidKeys = { ...generated, subject: DEVELOPMENT_VAPID_SUBJECT };
  // Written whole under a temporary name, then linked into place: link() fails if the file exists,
  // so of two processes starting at once one pair wins, and nobody reads a half-written file.
  const temporary = path.join(dataDir, `.${VAPID_KEYS_FILE}.${randomUUID()}`);
  await writeFile(temporary, `${JSON.stringify(keys, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
  // The mode given to writeFile is filtered by the umask; make sure.
  await chmod(temporary, PRIVATE_FILE_MODE);
  try {
    await link(temporary, file);
    return keys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const winner = await readKeys(file);
    if (winner) return winner;
    throw new Error(`${file} exists but holds no valid VAPID keys`, { cause: error });
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readKeys(file: string): Promise<VapidKeys | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<VapidKeys>;
  const keys = { publicKey: String(parsed.publicKey), privateKey: String(parsed.privateKey), subject: String(parsed.subject ?? DEVELOPMENT_VAPID_SUBJECT) };
  const problems = vapidKeyProblems(keys);
  if (problems.length > 0) throw new Error(`${file}: ${problems.join('; ')}. Delete it to have a new pair made.`);
  return keys;
}
