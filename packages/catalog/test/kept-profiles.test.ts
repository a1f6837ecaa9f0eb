import { bumpProfileVersion, findUserProfiles, upsertUser } from '@readlib/data';
import { testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReaderKeeps } from '../src/reader/reader-keeps.js';

const dialects = await testDialects();

// Book details' readers take their nicknames and avatars from a keep that depends on the profiles
// version (counters.profile_version, moved by every registration that changes one).
describe.each(dialects)("readers' profiles kept on $name", (dialect) => {
  let h: Awaited<ReturnType<typeof dialect.create>>;
  beforeEach(async () => {
    h = await dialect.create();
  });
  afterEach(async () => h.destroy());

  const rename = (openId: string, nick: string) =>
    h.db.updateTable('users').set({ nick_name: nick }).where('open_id', '=', openId).execute();
  const moveProfiles = () => h.db.transaction().execute((trx) => bumpProfileVersion(trx));
  const read = (ids: number[]) => findUserProfiles(h.db, ids);

  it('keeps what it read while the version holds, and reads again once it moves', async () => {
    const a = await upsertUser(h.db, { openId: 'a', nickName: 'Ann' });
    const keeps = new ReaderKeeps();
    const first = await keeps.sync(h.db, 0);
    expect((await first.profiles([a.id, 999_999], read)).get(a.id)?.nick_name).toBe('Ann');
    // changed behind the version's back: the kept profile is what a reader is shown
    await rename('a', 'Anna');
    expect((await (await keeps.sync(h.db, 0)).profiles([a.id], read)).get(a.id)?.nick_name).toBe('Ann');
    await moveProfiles();
    expect((await (await keeps.sync(h.db, 0)).profiles([a.id], read)).get(a.id)?.nick_name).toBe('Anna');
  });

  it('a read begun before the version moved is answered but not kept', async () => {
    const a = await upsertUser(h.db, { openId: 'a', nickName: 'Ann' });
    const keeps = new ReaderKeeps();
    const older = await keeps.sync(h.db, 0);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // the older request's read is in flight when a request syncs the next version
    const reading = older.profiles([a.id], async (ids) => {
      const rows = await read(ids);
      await held;
      return rows;
    });
    await moveProfiles();
    await rename('a', 'Anna');
    const newer = await keeps.sync(h.db, 0);
    release();
    expect((await reading).get(a.id)?.nick_name).toBe('Ann');
    expect((await newer.profiles([a.id], read)).get(a.id)?.nick_name).toBe('Anna');
  });
});
