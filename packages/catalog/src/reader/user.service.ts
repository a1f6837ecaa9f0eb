import type { RegisterBody, UserDayData } from '@readlib/contracts';
import { AppError, DEFAULT_PLATFORM, notFound } from '@readlib/contracts';
import { findUserByOpenId, findUserId, type User, upsertUser } from '@readlib/data';
import { DAY_MS, type ReaderContext } from './reader-context.js';

/** Upsert keyed by openId: a later call changes the fields it sends and keeps the registration time. */
export async function register(ctx: ReaderContext, body: RegisterBody): Promise<void> {
  await upsertUser(ctx.db, body, ctx.now(), DEFAULT_PLATFORM);
}

/**
 * Whole days since registration, the registration day being day 1. Days are elapsed 24-hour periods,
 * so the answer does not depend on the server's time zone.
 */
export async function daysSinceRegistration(ctx: ReaderContext, openId: string): Promise<UserDayData> {
  const user = await findUserByOpenId(ctx.db, openId);
  if (!user) throw notFound('user');
  const elapsed = Math.max(0, ctx.now() - Number(user.created_at));
  return { day: Math.floor(elapsed / DAY_MS) + 1 };
}

/** What reader requests need of their caller: who they are, not their profile. */
export type UserKey = Pick<User, 'id' | 'open_id'>;

/**
 * The registered user of an openId, or undefined. The id of a registered openId never changes and users
 * are never deleted, so it is kept once read: a detail, home page or shelf then reads no user row.
 * Unknown openIds are read every time: they may register at any moment.
 */
export async function findUserKey(ctx: ReaderContext, openId: string): Promise<UserKey | undefined> {
  const id = await ctx.keeps.userId(openId, () => findUserId(ctx.db, openId));
  return id === undefined ? undefined : { id, open_id: openId };
}

/** Writes (shelf, rank) need a registered openId: error_code 4 otherwise (decisions.md §2). */
export async function registeredUser(ctx: ReaderContext, openId: string): Promise<UserKey> {
  const user = await findUserKey(ctx, openId);
  if (!user) throw new AppError('unregistered', 'openId is not registered: register first');
  return user;
}
