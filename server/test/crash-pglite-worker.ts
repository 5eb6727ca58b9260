// A process whose PGlite worker dies while open (server/db/engine/pglite-host.test.ts):
//   node --import tsx server/test/crash-pglite-worker.ts
// starts the worker with the server's default crash handling, then ends its thread as a crash
// would. Exits 1 with the handler's line on stderr; still running after 20 s, it exits 0 (the
// handler did nothing, which the test reports).
import { exitOnCrash, startPgliteWorker } from '../db/engine/pglite-host';

const host = await startPgliteWorker({ dataDir: null, onCrash: exitOnCrash });
await host.worker.terminate();
setTimeout(() => process.exit(0), 20_000);
