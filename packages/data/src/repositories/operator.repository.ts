import type { Kysely } from 'kysely';
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

export async function setOperatorPassword(db: Kysely<Database>, username: string, passwordHash: string) {
  await db
    .updateTable('operators')
    .set({ password_hash: passwordHash })
    .where('username', '=', username)
    .execute();
}
