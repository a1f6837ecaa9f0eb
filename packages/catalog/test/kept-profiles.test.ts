import { upsertUser } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeptProfiles } from '../src/reader/kept-reads.js';

const dialects = await testDialects();

// Issue: performance — book details' readers take their nicknames and avatars from a kept map, which
// counters.profile_version (moved by every registration that changes one) empties.
describe.each(dialects)('KeptProfiles on $name', (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  const rename = (openId: string, nick: string) =>
    h.db.updateTable('users').set({ nick_name: nick }).where('open_id', '=', openId).execute();

  it('keeps what it read while the version holds, and reads again once it moves', async () => {
    const a = await upsertUser(h.db, { openId: 'a', nickName: 'Ann' });
    const kept = new KeptProfiles(10);
    expect((await kept.of(h.db, [a.id, 999_999], 1)).get(a.id)?.nick_name).toBe('Ann');
    await rename('a', 'Anna');
    expect((await kept.of(h.db, [a.id], 1)).get(a.id)?.nick_name).toBe('Ann');
    expect((await kept.of(h.db, [a.id], 2)).get(a.id)?.nick_name).toBe('Anna');
  });

  it('a read begun under an older version is answered but not kept once a newer one is seen', async () => {
    const a = await upsertUser(h.db, { openId: 'a', nickName: 'Ann' });
    const b = await upsertUser(h.db, { openId: 'b', nickName: 'Ben' });
    const kept = new KeptProfiles(10);
    // the older request's read is in flight when a request that synced the next version comes
    const older = kept.of(h.db, [a.id], 1);
    const newer = kept.of(h.db, [b.id], 2);
    expect((await older).get(a.id)?.nick_name).toBe('Ann');
    await newer;
    await rename('a', 'Anna');
    expect((await kept.of(h.db, [a.id], 2)).get(a.id)?.nick_name).toBe('Anna');
  });
});
