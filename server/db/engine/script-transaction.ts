import pg from 'pg';
import type { Db } from './open-database';

export type Row = Record<string, unknown>;

/**
 * A statement prepared once per connection (PREPARE), run in scripts as `execute name(values)`:
 * Postgres then parses and plans it once per connection instead of once per batch. `types` are
 * its parameters' SQL types, `$1`… in `text`.
 */
export interface PreparedStatement {
  readonly name: string;
  readonly types: readonly string[];
  readonly text: string;
}

/** A statement that answers no rows: keeps a place in a script whose optional statement is not needed. */
export const NO_ROWS = 'select 1 where false';

/** One statement of a script: SQL text, or a prepared statement with its values as literals. */
export type Statement = string | { readonly prepared: PreparedStatement; readonly values: readonly string[] };

/** A transaction whose statements go out as scripts: several statements, one round trip. */
export interface ScriptTransaction {
  /** Runs the statements in order (the first call also opens the transaction); one rows array each. */
  run(statements: Statement[]): Promise<Row[][]>;
  /** Runs the statements, then commits, in the same round trip. */
  commit(statements: Statement[]): Promise<Row[][]>;
}

// Every statement defined with prepared(), by name: each connection prepares them all at once.
const registry = new Map<string, PreparedStatement>();

/** Defines a statement every connection prepares before its first script transaction. */
export function prepared(name: string, types: readonly string[], text: string): PreparedStatement {
  if (registry.has(name)) throw new Error(`prepared statement ${name} is defined twice`);
  const statement = { name, types, text };
  registry.set(name, statement);
  return statement;
}

/** `execute name(v1, v2…)` of a prepared statement; the values are SQL literals (sqlInt, sqlText). */
export function execute(statement: PreparedStatement, ...values: string[]): Statement {
  if (values.length !== statement.types.length) throw new TypeError(`${statement.name} takes ${statement.types.length} values`);
  return { prepared: statement, values };
}

const textOf = (statement: Statement) =>
  typeof statement === 'string' ? statement : `execute ${statement.prepared.name}(${statement.values.join(', ')})`;

// How many of the registry's statements each pooled connection has prepared (a discarded
// connection takes its count along).
const preparedOn = new WeakMap<object, number>();

/**
 * Prepares every defined statement on this connection, in a script of its own before its first
 * transaction, once per connection's life: a PREPARE is not undone by a rollback, so it must not
 * share a script that may fail halfway. A connection on which it fails is thrown away.
 */
async function prepareAll(connection: pg.PoolClient): Promise<void> {
  if (preparedOn.get(connection) === registry.size) return;
  const script = [...registry.values()]
    .slice(preparedOn.get(connection) ?? 0)
    .map(({ name, types, text }) => `prepare ${name}(${types.join(', ')}) as ${text}`);
  await connection.query(script.join(';\n')).catch((error: unknown) => {
    connection.release(true);
    throw new ScriptError(script, error);
  });
  preparedOn.set(connection, registry.size);
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

  constructor(statements: Statement[], error: unknown) {
    // `execute` is named with its statement: which one failed says more than the verb.
    const kinds = statements.map((statement) => (typeof statement === 'string' ? statement.trim().split(/\s+/, 1)[0] : `execute ${statement.prepared.name}`)).join('; ');
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
  if (client instanceof pg.Pool) {
    const connection = await client.connect();
    await prepareAll(connection);
    let begun = false;
    const run = async (statements: Statement[]) => {
      const script = begun ? statements : ['begin', ...statements];
      begun = true;
      const results = (await connection.query(script.map(textOf).join(';\n')).catch((error: unknown) => {
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
  throw new Error('scriptTransaction: not a node-postgres pool');
}

/** An integer as a SQL literal (refuses anything else, so nothing but digits reaches the script). */
export function sqlInt(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${value}`);
  return String(value);
}

/** An integer, or SQL's null. */
export const sqlIntOrNull = (value: number | null): string => (value === null ? 'null' : sqlInt(value));

/** Text as a SQL string literal, quotes and backslashes escaped (node-postgres' escapeLiteral). */
export function sqlText(value: string): string {
  return pg.escapeLiteral(value);
}

/** An int[] as a SQL literal, for a prepared statement's array parameter. */
export const sqlIntArray = (values: readonly number[]) => sqlText(`{${values.map(sqlInt).join(',')}}`);

/** A value as a JSON SQL literal, for a prepared statement's json parameter. */
export const sqlJson = (value: unknown) => sqlText(JSON.stringify(value));
