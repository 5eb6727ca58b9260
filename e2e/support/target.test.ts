// What the e2e suite runs against (E2E_* variables) and which tagged specs it then skips.
import { describe, expect, it } from 'vitest';
import { E2E_EMULATOR_HOST, E2E_PORT, readTarget } from './env';
import { EMULATOR, LOCAL_ONLY, SMOKE, unmetRequirement } from './requirements';

describe('readTarget', () => {
  it('without E2E_BASE_URL: the local stack, its test emulator, fake Google sign-ins', () => {
    expect(readTarget({})).toMatchObject({
      baseURL: `http://localhost:${E2E_PORT}`,
      remote: false,
      auth: 'emulator',
      emulatorHost: E2E_EMULATOR_HOST,
      firebaseProjectId: 'demo-parley',
      peoplePerRole: 4,
    });
  });

  it('a deployment with an emulator, and one on a real project with custom tokens', () => {
    expect(readTarget({ E2E_BASE_URL: 'https://staging.example.com/', E2E_AUTH_EMULATOR_HOST: 'auth.staging:9099' })).toMatchObject({
      baseURL: 'https://staging.example.com',
      remote: true,
      auth: 'emulator',
      emulatorHost: 'auth.staging:9099',
    });
    expect(
      readTarget({
        E2E_BASE_URL: 'https://pr-42.example.com',
        E2E_AUTH: 'custom-token',
        E2E_FIREBASE_PROJECT_ID: 'parley-staging',
        E2E_FIREBASE_API_KEY: 'key',
        E2E_FIREBASE_SERVICE_ACCOUNT: '/secrets/sa.json',
      }),
    ).toMatchObject({ remote: true, auth: 'custom-token', emulatorHost: null, firebaseProjectId: 'parley-staging', serviceAccountFile: '/secrets/sa.json' });
  });

  it('says what to set when a deployment gives no way to make people', () => {
    expect(() => readTarget({ E2E_BASE_URL: 'https://staging.example.com' })).toThrow(/set E2E_AUTH_EMULATOR_HOST=host:port, or E2E_AUTH=custom-token/);
    expect(() => readTarget({ E2E_BASE_URL: 'https://staging.example.com', E2E_AUTH: 'custom-token' })).toThrow(
      /E2E_FIREBASE_PROJECT_ID .* and E2E_FIREBASE_API_KEY/,
    );
    expect(() => readTarget({ E2E_BASE_URL: 'staging.example.com' })).toThrow(/E2E_BASE_URL/);
    expect(() => readTarget({ E2E_AUTH: 'password' })).toThrow(/E2E_AUTH/);
  });
});

describe('unmetRequirement', () => {
  const local = readTarget({});
  const staging = readTarget({ E2E_BASE_URL: 'https://staging.example.com', E2E_AUTH_EMULATOR_HOST: 'auth.staging:9099' });
  const real = readTarget({ E2E_BASE_URL: 'https://app.example.com', E2E_AUTH: 'custom-token', E2E_FIREBASE_PROJECT_ID: 'p', E2E_FIREBASE_API_KEY: 'k' });

  it('runs everything against the local stack', () => {
    for (const tags of [[LOCAL_ONLY], [EMULATOR], [SMOKE], []]) expect(unmetRequirement(tags, local)).toBeNull();
  });

  it('skips local-only specs against any deployment, naming it', () => {
    expect(unmetRequirement([LOCAL_ONLY, SMOKE], staging)).toBe(
      '@local-only: needs the stack this run starts itself, and E2E_BASE_URL points at https://staging.example.com',
    );
    expect(unmetRequirement([EMULATOR], staging)).toBeNull();
  });

  it('skips emulator specs where the deployment trusts a real Firebase project', () => {
    expect(unmetRequirement([EMULATOR], real)).toMatch(/^@emulator: needs a deployment that trusts the Auth emulator/);
    expect(unmetRequirement([SMOKE], real)).toBeNull();
  });
});
