import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database, NewOperator, Operator } from '../database.js';

export async function createOperator(db: Kysely<Database>, op: NewOperator): Promise<Operator> {
  await db
    .insertInto('operators')
    .values({ ...op, created_at: Date.now() })
    .execute();
  return (await findOperatorByUsername(db, op.username))!;
}

export async function findOperatorByUsername(
  db: Kysely<Database>,
  username: string,
): Promise<Operator | undefined> {
  return db.selectFrom('operators').selectAll().where('username', '=', username).executeTakeFirst();
}

export async function findOperatorById(db: Kysely<Database>, id: number): Promise<Operator | undefined> {
  return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function countOperators(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('operators')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A new password hash, and the token version moved in the same statement so every token issued
 * before is refused. False when there is no such operator.
 */
export async function resetOperatorPassword(
  db: Kysely<Database>,
  username: string,
  passwordHash: string,
): Promise<boolean> {
  const res = await db
    .updateTable('operators')
    .set((eb) => ({ password_hash: passwordHash, token_version: eb('token_version', '+', 1) }))
    .where('username', '=', username)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/**
 * Moves the operator's token version from `version`, refusing every token issued before (a logout).
 * False when the operator is gone or the version had already moved (another logout, a password reset).
 */
export async function revokeOperatorTokens(
  db: Kysely<Database>,
  id: number,
  version: number,
): Promise<boolean> {
  const res = await db
    .updateTable('operators')
    .set((eb) => ({ token_version: eb('token_version', '+', 1) }))
    .where('id', '=', id)
    .where('token_version', '=', version)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** The current token version of an operator, undefined when the operator no longer exists. */
export async function operatorTokenVersion(db: Kysely<Database>, id: number): Promise<number | undefined> {
  const [row] = await tokenVersionOf(db, id);
  return row ? Number(row.token_version) : undefined;
}

// every administration request: built once (a prepared statement on PostgreSQL)
const tokenVersionOf = compiledOnce((db, id: number) =>
  db.selectFrom('operators').select('token_version').where('id', '=', id),
);
