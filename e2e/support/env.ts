// What the end-to-end suite runs against and how it makes its signed-in people, read once from
// the environment (docs/TESTING.md lists every variable). Imported by playwright.config.ts, so a
// mistake stops the run before anything starts, with a sentence saying what to set.
import { z } from 'zod';
import { TEST_EMULATOR_HOST } from '../../scripts/test-emulator.mjs';

/** Ports of the local stack: apart from `npm run dev` (3000 / 9099) so both can run at once. */
// E2E_PORT and TEST_EMULATOR_PORT may be overridden so two checkouts can run their suites side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_EMULATOR_HOST = TEST_EMULATOR_HOST;

const optional = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .optional();

const schema = z.object({
  E2E_BASE_URL: optional.pipe(z.url({ protocol: /^https?$/ }).optional()),
  E2E_AUTH: z.enum(['emulator', 'custom-token']).default('emulator'),
  E2E_AUTH_EMULATOR_HOST: optional.pipe(z.string().regex(/^[^\s/:]+:\d+$/, 'host:port').optional()),
  E2E_FIREBASE_PROJECT_ID: optional,
  E2E_FIREBASE_API_KEY: optional,
  E2E_FIREBASE_SERVICE_ACCOUNT: optional,
  E2E_PEOPLE: z.coerce.number().int().min(0).max(50).default(4),
});

export interface E2eTarget {
  /** The deployment under test, no trailing slash. */
  baseURL: string;
  /** True when E2E_BASE_URL names a deployment: nothing is started here, local-only specs are skipped. */
  remote: boolean;
  /** How the setup project makes people (docs/TESTING.md, "Signed-in people"). */
  auth: 'emulator' | 'custom-token';
  /** host:port of the Auth emulator the deployment trusts; null for a real Firebase project. */
  emulatorHost: string | null;
  firebaseProjectId: string;
  firebaseApiKey: string;
  /** Path of the runner's service-account key (custom tokens); else Application Default Credentials. */
  serviceAccountFile: string | null;
  /** People of each role the setup project signs in before the specs start. */
  peoplePerRole: number;
}

export function readTarget(env: Record<string, string | undefined>): E2eTarget {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`End-to-end configuration: ${problems.join('; ')}`);
  }
  const vars = parsed.data;
  const remote = vars.E2E_BASE_URL !== undefined;
  // The local stack always runs the test emulator; a deployment says whether it trusts one.
  const emulatorHost = vars.E2E_AUTH_EMULATOR_HOST ?? (remote ? null : E2E_EMULATOR_HOST);
  if (!emulatorHost && vars.E2E_AUTH === 'emulator') {
    throw new Error(
      'End-to-end configuration: E2E_AUTH=emulator (the default) signs people in through the Auth emulator ' +
        'the deployment trusts: set E2E_AUTH_EMULATOR_HOST=host:port, or E2E_AUTH=custom-token for a real Firebase project.',
    );
  }
  if (!emulatorHost && (!vars.E2E_FIREBASE_PROJECT_ID || !vars.E2E_FIREBASE_API_KEY)) {
    throw new Error(
      'End-to-end configuration: against a real Firebase project, set E2E_FIREBASE_PROJECT_ID (the deployment\'s ' +
        'FIREBASE_PROJECT_ID) and E2E_FIREBASE_API_KEY (its web API key).',
    );
  }
  return {
    baseURL: (vars.E2E_BASE_URL ?? `http://localhost:${E2E_PORT}`).replace(/\/+$/, ''),
    remote,
    auth: vars.E2E_AUTH,
    emulatorHost,
    // The emulator accepts any key and the test stack's demo project.
    firebaseProjectId: vars.E2E_FIREBASE_PROJECT_ID ?? 'demo-parley',
    firebaseApiKey: vars.E2E_FIREBASE_API_KEY ?? 'demo-api-key',
    serviceAccountFile: vars.E2E_FIREBASE_SERVICE_ACCOUNT ?? null,
    peoplePerRole: vars.E2E_PEOPLE,
  };
}

export const target = readTarget(process.env);
export const E2E_BASE_URL = target.baseURL;
