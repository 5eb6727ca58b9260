// Whether this node should get traffic (GET /api/ready): the database answers, Redis answers when
// the node uses it, and the node is not shutting down. Liveness (/api/health) is a separate,
// dependency-free question: a node whose database is away must not be restarted for it.
import { sql } from 'drizzle-orm';
import type { Db } from './db/engine/open-database';
import { withTimeout } from './with-timeout';

export interface Readiness {
  /** Resolves when the node can take traffic; rejects with a short reason otherwise. */
  check(): Promise<void>;
}

export interface ReadinessDeps {
  db: Db;
  /** Several nodes only (REDIS_URL). */
  redis?: { ping(timeoutMs: number): Promise<void> };
  draining(): boolean;
}

export class NotReadyError extends Error {
  override name = 'NotReadyError';
}

// Well under a load balancer's usual probe timeout (2–5 s).
const CHECK_TIMEOUT_MS = 1_500;

export function createReadiness({ db, redis, draining }: ReadinessDeps): Readiness {
  // Probes from several balancers at once share one round of checks instead of each costing a query.
  let running: Promise<void> | undefined;
  const checkDependencies = async () => {
    await withTimeout(Promise.resolve(db.execute(sql`select 1`)), CHECK_TIMEOUT_MS, `no answer within ${CHECK_TIMEOUT_MS} ms`).catch((error: unknown) => {
      throw new NotReadyError('Database unreachable.', { cause: error });
    });
    await redis?.ping(CHECK_TIMEOUT_MS).catch((error: unknown) => {
      throw new NotReadyError('Redis unreachable.', { cause: error });
    });
  };
  return {
    async check() {
      if (draining()) throw new NotReadyError('Shutting down.');
      running ??= checkDependencies().finally(() => (running = undefined));
      await running;
      // It may have started while the checks ran.
      if (draining()) throw new NotReadyError('Shutting down.');
    },
  };
}
