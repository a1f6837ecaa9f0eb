import { upsertUser } from '@readlib/data';
import { afterEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, register, seedBooks, shelfArg } from './helpers.js';

// Issue: performance — a reader process keeps the id of each registered openId it has seen (ids never
// change, users are never deleted), so detail, home and shelf read no user row; an openId not yet
// registered is never kept (decisions.md §3 "Users": writes need a registered openId, error_code 4).
describe.each(dialects)('kept user ids on $name', (dialect) => {
  let t: Harness;
  afterEach(async () => t.close());

  const save = (openId: string, fileName: string) =>
    get(t, '/book/shelf/save', { shelf: shelfArg(openId, fileName) });
  const shelfNames = async (openId: string) =>
    ((await get(t, '/book/shelf/get', { openId })).body.data as Array<{ fileName: string }>).map(
      (e) => e.fileName,
    );

  it('an openId registered elsewhere after a request that did not know it is registered at once', async () => {
    t = await harness(dialect);
    const [book] = await seedBooks(t, 1);
    expect((await save('late', book!.file_name)).body.error_code).toBe(4);
    expect(await shelfNames('late')).toEqual([]);
    await upsertUser(t.h.db, { openId: 'late', nickName: 'Late' }); // another replica's registration
    expect((await save('late', book!.file_name)).body.error_code).toBe(0);
    expect(await shelfNames('late')).toEqual([book!.file_name]);
    const detail = (await get(t, '/book/detail', { fileName: book!.file_name, openId: 'late' })).body.data;
    expect(detail.readers.map((r: { nickName: string }) => r.nickName)).toEqual(['Late']);
  });

  it('a registered openId is kept: its id is not read again', async () => {
    t = await harness(dialect);
    const [a, b] = await seedBooks(t, 2);
    await register(t, 'kept');
    await save('kept', a!.file_name);
    // behind the service's back (nothing the service does): the row no longer answers to the openId
    await t.h.db.updateTable('users').set({ open_id: 'moved' }).where('open_id', '=', 'kept').execute();
    expect((await save('kept', b!.file_name)).body.error_code).toBe(0);
    expect(await shelfNames('kept')).toEqual([b!.file_name, a!.file_name]);
    // an openId not kept is read: the row answers to its new one
    expect(await shelfNames('moved')).toEqual([b!.file_name, a!.file_name]);
  });
});
