import type { Kysely } from 'kysely';
import { compiledOnce } from '../compiled-once.js';
import type { Database, User } from '../database.js';
import { dialectOf } from '../dialect.js';
import { inTransaction } from '../write-batcher.js';
import { bumpProfileVersion } from './catalog-version.repository.js';

export interface UserProfile {
  openId: string;
  platform?: string | undefined;
  avatarUrl?: string | undefined;
  nickName?: string | undefined;
  gender?: number | undefined;
  country?: string | undefined;
  province?: string | undefined;
  city?: string | undefined;
  language?: string | undefined;
}

/** The profile of a first registration that leaves every field out. */
export const userDefaults = (platform: string) => ({
  platform,
  avatar_url: '',
  nick_name: '',
  gender: 0,
  country: '',
  province: '',
  city: '',
  language: '',
});

/**
 * Registration is an upsert keyed by openId. The first call stores the profile with defaults for what
 * it leaves out (`defaultPlatform`, gender 0, empty text); a later one changes only the fields it sends,
 * as an update does elsewhere, and keeps created_at: a reader of the payment platform who registers
 * again without `platform` stays on it, and a call with the nickname alone keeps the avatar.
 */
export async function upsertUser(
  db: Kysely<Database>,
  p: UserProfile,
  now = Date.now(),
  defaultPlatform = 'wx',
): Promise<User> {
  const sent = {
    platform: p.platform,
    avatar_url: p.avatarUrl,
    nick_name: p.nickName,
    gender: p.gender,
    country: p.country,
    province: p.province,
    city: p.city,
    language: p.language,
  };
  const changes: Partial<typeof sent> = Object.fromEntries(
    Object.entries(sent).filter(([, v]) => v !== undefined),
  );
  const defaults = userDefaults(defaultPlatform);
  return inTransaction(db, async (trx) => {
    const before = await profileOf(trx, p.openId);
    await trx
      .insertInto('users')
      .values({ open_id: p.openId, ...defaults, ...changes, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('open_id').doUpdateSet({ ...changes, updated_at: now }))
      .execute();
    const shown = (k: 'avatar_url' | 'nick_name') => changes[k] !== undefined && changes[k] !== before?.[k];
    // book details list their readers' nicknames and avatars: readers keep them until this moves
    if (before && (shown('avatar_url') || shown('nick_name'))) await bumpProfileVersion(trx);
    return (await findUserByOpenId(trx, p.openId))!;
  });
}

/** What a book detail shows of a user, locked on PostgreSQL until the registration commits. */
async function profileOf(trx: Kysely<Database>, openId: string) {
  let q = trx.selectFrom('users').select(['avatar_url', 'nick_name']).where('open_id', '=', openId);
  if (dialectOf(trx) === 'postgres') q = q.forUpdate();
  return q.executeTakeFirst();
}

// every reader request with an openId: built once
const userByOpenId = compiledOnce((db, openId: string) =>
  db.selectFrom('users').selectAll().where('open_id', '=', openId),
);

export async function findUserByOpenId(db: Kysely<Database>, openId: string): Promise<User | undefined> {
  return (await userByOpenId(db, openId))[0];
}

// every reader request with an openId not yet kept: built once (and prepared: it names its column)
const userIdByOpenId = compiledOnce((db, openId: string) =>
  db.selectFrom('users').select('id').where('open_id', '=', openId),
);

/** The id of the user registered under `openId`, from the unique index alone. */
export async function findUserId(db: Kysely<Database>, openId: string): Promise<number | undefined> {
  return (await userIdByOpenId(db, openId))[0]?.id;
}

export interface UserProfileRow {
  id: number;
  avatar_url: string;
  nick_name: string;
}

/** The nickname and avatar of each of these users that exists (any order). */
export async function findUserProfiles(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<UserProfileRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'avatar_url', 'nick_name'])
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export async function countUsers(db: Kysely<Database>, since?: number, until?: number): Promise<number> {
  let q = db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n'));
  if (since !== undefined) q = q.where('created_at', '>=', since);
  if (until !== undefined) q = q.where('created_at', '<', until);
  return Number((await q.executeTakeFirstOrThrow()).n);
}
