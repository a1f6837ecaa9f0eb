import { findUserByOpenId } from '@readlib/data';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DAY, dialects, get, type Harness, harness } from './helpers.js';

describe.each(dialects)('spec §4.4, §4.10 / decisions.md §3 users on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
  });
  afterEach(async () => t.close());

  const registerRaw = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/user/register', payload: payload as object });

  it('registers with defaults (platform wx, gender 0) and answers without data', async () => {
    const res = await registerRaw({ openId: 'o1', nickName: 'Reader' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ error_code: 0, msg: 'success' });
    const user = await findUserByOpenId(t.h.db, 'o1');
    expect(user).toMatchObject({ platform: 'wx', gender: 0, nick_name: 'Reader', created_at: t.clock.now });
  });

  it('a second registration updates the profile and keeps the registration time', async () => {
    const first = t.clock.now;
    await registerRaw({ openId: 'o1', nickName: 'Old', city: 'Hangzhou' });
    t.clock.now += 3 * DAY;
    await registerRaw({ openId: 'o1', nickName: 'New', platform: 'ali', gender: 2 });
    const user = await findUserByOpenId(t.h.db, 'o1');
    expect(user).toMatchObject({
      nick_name: 'New',
      platform: 'ali',
      gender: 2,
      created_at: first,
      updated_at: t.clock.now,
    });
    const n = await t.h.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(1);
  });

  it('a later registration changes only the fields it sends (decisions.md §3: it "updates the profile")', async () => {
    await registerRaw({
      openId: 'o2',
      platform: 'my',
      nickName: 'A',
      avatarUrl: 'http://a/1.png',
      city: 'Beijing',
      gender: 1,
    });
    t.clock.now += DAY;
    await registerRaw({ openId: 'o2', nickName: 'B', city: '' });
    expect(await findUserByOpenId(t.h.db, 'o2')).toMatchObject({
      platform: 'my',
      nick_name: 'B',
      avatar_url: 'http://a/1.png',
      city: '',
      gender: 1,
      updated_at: t.clock.now,
    });
  });

  it('refuses a body without openId, a bad gender or a non-JSON body (400)', async () => {
    for (const payload of [{}, { openId: '' }, { openId: 'o', gender: 3 }, { openId: 'o', gender: 'x' }]) {
      const res = await registerRaw(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error_code).toBe(2);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: '/user/register',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error_code).toBeTypeOf('number');
  });

  it('a boolean for a profile field is refused naming it, and registers nobody', async () => {
    for (const [field, types] of [
      ['gender', 'integer'],
      ['nickName', 'string'],
    ] as const) {
      const res = await registerRaw({ openId: 'o-bool', [field]: true });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error_code: 2,
        msg: `invalid parameter: body/${field} must be ${types}, not true`,
      });
    }
    expect((await get(t, '/user/day', { openId: 'o-bool' })).body.error_code).toBe(1);
  });

  it('day counts whole days since registration, the registration day being day 1', async () => {
    const start = t.clock.now;
    await registerRaw({ openId: 'o1' });
    const day = async () => (await get(t, '/user/day', { openId: 'o1' })).body.data.day;
    expect(await day()).toBe(1);
    t.clock.now = start + DAY - 1;
    expect(await day()).toBe(1);
    t.clock.now = start + DAY;
    expect(await day()).toBe(2);
    t.clock.now = start + 30 * DAY + 5;
    expect(await day()).toBe(31);
  });

  it('day for an unknown openId is 404 error_code 1 (a read, so "not found", not "unregistered")', async () => {
    expect(await get(t, '/user/day', { openId: 'ghost' })).toMatchObject({
      status: 404,
      body: { error_code: 1 },
    });
    expect(await get(t, '/user/day')).toMatchObject({ status: 400, body: { error_code: 2 } });
  });
});
