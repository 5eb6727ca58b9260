import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Db } from './open-database';

export type Row = Record<string, unknown>;

/** A transaction whose statements go out as scripts: several statements, one round trip. */
export interface ScriptTransaction {
  /** Runs the statements in order (the first call also opens the transaction); one rows array each. */
  run(statements: string[]): Promise<Row[][]>;
  /** Runs the statements, then commits, in the same round trip. */
  commit(statements: string[]): Promise<Row[][]>;
}

/**
 * What a failed script threw, minus what would quote its values: the drivers attach the whole
 * script (PGlite's `query`, literals and all: message text) and Postgres' `detail`, `where` and
 * `hint` may quote rows. Kept: the message (names, never values, for the failures seen here), the
 * SQLSTATE code and which constraint, table and column.
 */
export class ScriptError extends Error {
  readonly code?: string;
  readonly constraint?: string;
  readonly table?: string;
  readonly column?: string;

  constructor(statements: string[], error: unknown) {
    const kinds = statements.map((statement) => statement.trim().split(/\s+/, 1)[0]).join('; ');
    super(`Failed query (script: ${kinds}): ${error instanceof Error ? error.message : String(error)}`);
    this.name = 'ScriptError';
    const fields = (error ?? {}) as Record<string, unknown>;
    for (const key of ['code', 'constraint', 'table', 'column'] as const) {
      if (typeof fields[key] === 'string') Object.assign(this, { [key]: fields[key] });
    }
  }
}

/**
 * One transaction on one connection of the database's own driver, its statements sent as
 * simple-protocol scripts: `begin; a; b` then `c; commit` is two round trips where drizzle's
 * transaction with one query per statement is five. Round trips are most of a small batch's time
 * on Postgres, and each query PGlite runs outside a script costs milliseconds on its own.
 *
 * Scripts take no parameters: values go in as literals (sqlInt, sqlText). A failed statement
 * aborts the transaction, which is rolled back; so is a failure of `work` itself.
 */
export async function scriptTransaction<T>(db: Db, work: (tx: ScriptTransaction) => Promise<T>): Promise<T> {
  const client: unknown = (db as { $client?: unknown }).$client;
  if (client instanceof PGlite) {
    // PGlite's transaction holds its connection for us alone until the callback settles.
    return client.transaction(async (tx) => {
      const run = async (statements: string[]) => {
        const results = await tx.exec(statements.join(';\n')).catch((error: unknown) => {
          throw new ScriptError(statements, error);
        });
        return results.map((result) => result.rows as Row[]);
      };
      return work({ run, commit: run });
    });
  }
  if (client instanceof pg.Pool) {
    const connection = await client.connect();
    let begun = false;
    const run = async (statements: string[]) => {
      const script = begun ? statements : ['begin', ...statements];
      begun = true;
      const results = (await connection.query(script.join(';\n')).catch((error: unknown) => {
        throw new ScriptError(script, error);
      })) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(results) ? results : [results]).slice(script.length - statements.length).map((result) => result.rows as Row[]);
    };
    try {
      const result = await work({ run, commit: async (statements) => (await run([...statements, 'commit'])).slice(0, statements.length) });
      connection.release();
      return result;
    } catch (error) {
      // A connection that cannot even roll back is thrown away rather than handed to the next caller.
      const rolledBack = await connection.query('rollback').then(() => true, () => false);
      connection.release(!rolledBack);
      throw error;
    }
  }
  throw new Error('scriptTransaction: neither a PGlite nor a node-postgres database');
}

/** An integer as a SQL literal (refuses anything else, so nothing but digits reaches the script). */
export function sqlInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
  return String(value);
}

/** Text as a SQL string literal, quotes and backslashes escaped (node-postgres' escapeLiteral). */
export function sqlText(value: string): string {
  return pg.escapeLiteral(value);
}
