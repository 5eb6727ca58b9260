// Signed-in people for the end-to-end suite, made without the sign-in screen: the setup project
// signs a pool of them in before the specs start, each test claims people no other test has
// touched (so what one test does to an account cannot leak into another, or into its own
// retry), and the clean-up project takes every one of them out of Firebase and the product.
// Files live under e2e/.auth/<deployment>/ (git-ignored; they hold live session tokens):
//   people/<key>.json        every person this run made, read by the clean-up
//   pool/<role>/<key>.json   the storageState of a person no test has claimed yet
//   claimed/<key>.json       the storageState of a claimed person
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { E2eTarget } from '../env';
import { FirebaseIdentities, type SignInWith } from './firebase-identities';
import { ParleyAccounts } from './parley-accounts';

/** The roles the setup project signs in ahead; any other role is made when a test asks. */
export const POOLED_ROLES = ['alice', 'bob'] as const;

/** Test users are recognisable by this start of their uid (custom tokens) and email. */
export const TEST_USER_PREFIX = 'e2e-';

export interface PersonRecord {
  key: string;
  role: string;
  name: string;
  email: string;
  /** The Firebase uid: chosen (custom tokens) or the emulator's; null for form sign-ins. */
  uid: string | null;
  signInWith: SignInWith;
  /** The Parley user id, once the deployment has made the account. */
  userId: number | null;
  /** pool: made by the setup project; on-demand: made for a test; form: a test-account sign-in. */
  source: 'pool' | 'on-demand' | 'form';
}

/** A signed-in person: who they are, and the storageState file a browser context starts from. */
export interface Claimed {
  record: PersonRecord & { userId: number };
  /** The stored Authorization value, "Bearer <token>". */
  token: string;
  storageStatePath: string;
}

export interface StorageState {
  cookies: [];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

export interface CleanUpSummary {
  cleaned: Record<PersonRecord['source'], number>;
  failures: string[];
}

const AUTH_ROOT = fileURLToPath(new URL('../../.auth', import.meta.url));

/** One folder per deployment, so runs against staging and the local stack never mix. */
function authDir(target: E2eTarget): string {
  return path.join(AUTH_ROOT, new URL(target.baseURL).host.replace(/[^A-Za-z0-9.-]/g, '_'));
}

export class People {
  readonly dir: string;
  private readonly identities: FirebaseIdentities;
  private readonly accounts: ParleyAccounts;

  constructor(private readonly target: E2eTarget) {
    this.dir = authDir(target);
    this.identities = new FirebaseIdentities(target);
    this.accounts = new ParleyAccounts(target.baseURL);
  }

  /** A new person of `role`: a Firebase user, a Parley account and a session. */
  async make(role: string, source: 'pool' | 'on-demand', file: (key: string) => string): Promise<Claimed> {
    const key = `${TEST_USER_PREFIX}${role}-${randomBytes(6).toString('hex')}`;
    const name = `${role[0]!.toUpperCase()}${role.slice(1)} ${key.slice(-8)}`;
    const email = `${key}@example.com`;
    // Written before anything exists remotely, so even a half-made person is cleaned up.
    const customToken = this.target.auth === 'custom-token';
    const draft: PersonRecord = {
      key, role, name, email, source, userId: null,
      uid: customToken ? key : null,
      signInWith: customToken ? { kind: 'custom-token' } : { kind: 'idp', sub: key },
    };
    await this.saveRecord(draft);
    const identity = await this.identities.create({ key, name, email });
    const session = await this.accounts.authorize(identity);
    if (session.status !== 'ok') throw new Error(`${this.target.baseURL} says the new account ${email} is deactivated.`);
    const record = { ...draft, uid: identity.uid, signInWith: identity.signInWith, userId: session.userId };
    await this.saveRecord(record);
    const storageStatePath = file(key);
    await this.writeJson(storageStatePath, this.storageState(session));
    return { record, token: session.token, storageStatePath };
  }

  /** Signs the setup project's pool in: `perRole` people of every pooled role. */
  fillPool(perRole: number): Promise<Claimed[]> {
    const roles = POOLED_ROLES.flatMap((role) => Array.from({ length: perRole }, () => role));
    return mapLimit(roles, 8, (role) => this.make(role, 'pool', (key) => this.poolFile(role, key)));
  }

  /** A person of `role` no other test has had, and the path of their storageState. */
  async claim(role: string): Promise<Claimed> {
    const pool = path.join(this.dir, 'pool', role);
    await mkdir(path.join(this.dir, 'claimed'), { recursive: true });
    for (const file of await readdir(pool).catch(() => [] as string[])) {
      const claimed = this.claimedFile(path.basename(file, '.json'));
      try {
        // rename is atomic: of two workers reaching for one person, exactly one gets them.
        await rename(path.join(pool, file), claimed);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      return this.read(path.basename(file, '.json'), claimed);
    }
    return this.make(role, 'on-demand', (key) => this.claimedFile(key));
  }

  /** Notes a test-account sign-in so the clean-up removes that person too. */
  async recordFormPerson(person: { name: string; email: string }): Promise<void> {
    const key = `form-${person.email.toLowerCase().replace(/[^a-z0-9.-]/g, '_')}`;
    // The test-account form's fake Google subject (lib/firebase/firebase-client.ts).
    const signInWith: SignInWith = { kind: 'idp', sub: `test-${person.email.toLowerCase()}` };
    await this.saveRecord({ key, role: 'form', name: person.name, email: person.email, uid: null, userId: null, signInWith, source: 'form' });
  }

  /**
   * Every person of this deployment's folder out of the product and out of Firebase: signed in
   * again (a test may have revoked their session), their Parley account closed, their Firebase
   * user deleted. Records of the people done are removed; failures are returned, not thrown.
   */
  async cleanUp(): Promise<CleanUpSummary> {
    const summary: CleanUpSummary = { cleaned: { pool: 0, 'on-demand': 0, form: 0 }, failures: [] };
    const records = await this.records();
    const done: PersonRecord[] = [];
    const uids: string[] = [];
    await mapLimit(records, 8, async (record) => {
      try {
        const identity = await this.identities.signInAgain(record.uid, record.signInWith, record);
        const session = await this.accounts.authorize(identity);
        if (session.status === 'ok') await this.accounts.close(session.token);
        uids.push(identity.uid);
        done.push(record);
      } catch (error) {
        summary.failures.push(`${record.email}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    try {
      await this.identities.deleteUsers(uids);
      for (const record of done) {
        summary.cleaned[record.source] += 1;
        await unlink(this.recordFile(record.key)).catch(() => undefined);
      }
    } catch (error) {
      summary.failures.push(error instanceof Error ? error.message : String(error));
    }
    if (summary.failures.length === 0) await rm(this.dir, { recursive: true, force: true });
    return summary;
  }

  async records(): Promise<PersonRecord[]> {
    const dir = path.join(this.dir, 'people');
    const files = await readdir(dir).catch(() => [] as string[]);
    return Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as PersonRecord));
  }

  /** A pooled person's storageState path, without claiming them (the setup project's check). */
  async peek(role: string): Promise<Claimed | null> {
    const pool = path.join(this.dir, 'pool', role);
    const [file] = await readdir(pool).catch(() => [] as string[]);
    return file ? this.read(path.basename(file, '.json'), path.join(pool, file)) : null;
  }

  close(): Promise<void> {
    return this.identities.close();
  }

  /** What the pages keep after a sign-in: the Bearer token and the locale (lib/session/storage.ts). */
  private storageState(session: { token: string; locale: string }): StorageState {
    const localStorage = [
      { name: 'token', value: session.token },
      { name: 'locale', value: session.locale },
    ];
    return { cookies: [], origins: [{ origin: new URL(this.target.baseURL).origin, localStorage }] };
  }

  private async read(key: string, storageStatePath: string): Promise<Claimed> {
    const record = JSON.parse(await readFile(this.recordFile(key), 'utf8')) as Claimed['record'];
    const state = JSON.parse(await readFile(storageStatePath, 'utf8')) as StorageState;
    const token = state.origins[0]?.localStorage.find((item) => item.name === 'token')?.value ?? '';
    return { record, token, storageStatePath };
  }

  private claimedFile(key: string): string {
    return path.join(this.dir, 'claimed', `${key}.json`);
  }

  private poolFile(role: string, key: string): string {
    return path.join(this.dir, 'pool', role, `${key}.json`);
  }

  private recordFile(key: string): string {
    return path.join(this.dir, 'people', `${key}.json`);
  }

  private saveRecord(record: PersonRecord): Promise<void> {
    return this.writeJson(this.recordFile(record.key), record);
  }

  private async writeJson(file: string, value: unknown): Promise<void> {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  }
}

async function mapLimit<T, R>(items: T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
