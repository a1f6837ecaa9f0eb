import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database, User } from '../database.js';

export interface UserProfile {
  openId: string;
  platform: string;
  avatarUrl?: string | undefined;
  nickName?: string | undefined;
  gender?: number | undefined;
  country?: string | undefined;
  province?: string | undefined;
  city?: string | undefined;
  language?: string | undefined;
}

/** Registration is an upsert keyed by openId: a second call updates the profile, keeps created_at. */
export async function upsertUser(db: Kysely<Database>, p: UserProfile, now = Date.now()): Promise<User> {
  const profile = {
    platform: p.platform,
    avatar_url: p.avatarUrl ?? '',
    nick_name: p.nickName ?? '',
    gender: p.gender ?? 0,
    country: p.country ?? '',
    province: p.province ?? '',
    city: p.city ?? '',
    language: p.language ?? '',
    updated_at: now,
  };
  await db
    .insertInto('users')
    .values({ open_id: p.openId, ...profile, created_at: now })
    .onConflict((oc) => oc.column('open_id').doUpdateSet(profile))
    .execute();
  return (await findUserByOpenId(db, p.openId))!;
}

// every reader request with an openId: built once
const userByOpenId = compiledOnce((db, openId: string) =>
  db.selectFrom('users').selectAll().where('open_id', '=', openId),
);

export async function findUserByOpenId(db: Kysely<Database>, openId: string): Promise<User | undefined> {
  return (await userByOpenId(db, openId))[0];
}

export async function countUsers(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
