/** Ports of the end-to-end stack: apart from `npm run dev` (3000 / 9099) so both can run at once. */
// E2E_PORT and TEST_EMULATOR_PORT may be overridden so two checkouts can run their suites side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export { TEST_EMULATOR_HOST as E2E_EMULATOR_HOST } from '../../scripts/test-emulator.mjs';
