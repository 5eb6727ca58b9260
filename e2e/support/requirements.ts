// Tags a spec carries when it cannot run against every deployment. The fixtures skip such a test,
// with the reason below in the report, when the run's target lacks what the tag names.
import type { E2eTarget } from './env';

/** Needs the stack this run starts itself: its server process, its build, its files or logs. */
export const LOCAL_ONLY = '@local-only';
/** Needs a deployment that trusts the Auth emulator: the test-account form, the emulator's popups. */
export const EMULATOR = '@emulator';

/** The representative subset `npm test` also runs against a second server (scripts/check-e2e-remote.mjs). */
export const SMOKE = '@smoke';

export const NO_TEST_ACCOUNT_FORM =
  'signs in through the test-account form, which only builds made for the Auth emulator have ' +
  '(E2E_AUTH_EMULATOR_HOST is unset); the alice/bob fixtures work everywhere';

/** Why a test with these tags cannot run against `target`, or null when it can. */
export function unmetRequirement(tags: readonly string[], target: Pick<E2eTarget, 'remote' | 'baseURL' | 'emulatorHost'>): string | null {
  if (tags.includes(LOCAL_ONLY) && target.remote) {
    return `${LOCAL_ONLY}: needs the stack this run starts itself, and E2E_BASE_URL points at ${target.baseURL}`;
  }
  if (tags.includes(EMULATOR) && !target.emulatorHost) {
    return `${EMULATOR}: needs a deployment that trusts the Auth emulator, and E2E_AUTH_EMULATOR_HOST is unset`;
  }
  return null;
}
