import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type BookRow,
  bookStats,
  catalogState,
  categoriesOfBooks,
  countShelf,
  countViews,
  createOperator,
  createUpload,
  type DbHandle,
  deleteBook,
  deleteUpload,
  engagedBookIds,
  expiredUploads,
  findOperatorByUsername,
  findUpload,
  findUserByOpenId,
  findUserId,
  findUserProfiles,
  foldKeyword,
  insertBook,
  listShelf,
  logSearch,
  logSearches,
  rebuildActivityStats,
  recentReaderKeys,
  recentReaders,
  recordView,
  recordViews,
  removeShelf,
  saveRating,
  saveShelf,
  topKeywordCounts,
  topKeywords,
  topViewedBookIds,
  upsertUser,
  userRank,
  WELL_RATED_MIN_AVG,
  wellRatedBookIds,
} from '../src/index.js';
import { sampleBook, testDialects } from '../src/testing/index.js';

const dialects = await testDialects();

describe.each(dialects)(
  'users, shelf, ratings, views, search log, operators, uploads on $name',
  (dialect) => {
    let h: DbHandle;
    let books: BookRow[];
    beforeEach(async () => {
      h = await dialect.create();
      books = [];
      for (const category_id of [1, 1, 2, 3])
        books.push(await insertBook(h.db, sampleBook({ category_id }), []));
    });
    afterEach(async () => h.destroy());

    const user = (openId: string, at = 1000) =>
      upsertUser(h.db, { openId, platform: 'wx', nickName: openId }, at);

    it('registration is an upsert keyed by openId that keeps the registration time (decisions.md §3)', async () => {
      const first = await user('o1', 1000);
      const again = await upsertUser(
        h.db,
        { openId: 'o1', platform: 'wx', nickName: 'renamed', city: 'Hangzhou' },
        5000,
      );
      expect(again.id).toBe(first.id);
      expect(again.created_at).toBe(1000);
      expect(again).toMatchObject({ nick_name: 'renamed', city: 'Hangzhou', updated_at: 5000 });
      expect(await findUserByOpenId(h.db, 'nobody')).toBeUndefined();
      expect(await findUserId(h.db, 'o1')).toBe(first.id);
      expect(await findUserId(h.db, 'nobody')).toBeUndefined();
    });

    it('a registration that changes a nickname or avatar moves the profile version; others do not', async () => {
      const version = async () => (await catalogState(h.db)).profileVersion;
      const start = await version();
      await user('p1'); // a new user is nobody's reader yet
      await upsertUser(h.db, { openId: 'p1', nickName: 'p1', city: 'Hangzhou' }); // same name, other fields
      await upsertUser(h.db, { openId: 'p1' }); // nothing sent
      expect(await version()).toBe(start);
      await upsertUser(h.db, { openId: 'p1', nickName: 'renamed' });
      expect(await version()).toBe(start + 1);
      await upsertUser(h.db, { openId: 'p1', avatarUrl: 'https://example.test/a.png' });
      expect(await version()).toBe(start + 2);
      expect(await findUserByOpenId(h.db, 'p1')).toMatchObject({
        nick_name: 'renamed',
        avatar_url: 'https://example.test/a.png',
        city: 'Hangzhou',
      });
    });

    it("a book's stats count every view: the count that tells a detail its readers changed", async () => {
      const [a, b] = [await user('s1'), await user('s2')];
      const views = async () => (await bookStats(h.db, books[0]!.id)).views;
      expect(await views()).toBe(0);
      await recordView(h.db, a.id, books[0]!.id, 100);
      await recordView(h.db, b.id, books[0]!.id, 200);
      // a repeat view reorders the readers without adding one: the count still moves
      await recordView(h.db, a.id, books[0]!.id, 300);
      expect(await views()).toBe(3);
      expect(await bookStats(h.db, books[0]!.id)).toMatchObject({ readers: 2, views: 3 });
    });

    it('shelf save is idempotent, remove of an absent entry succeeds, lists are newest first', async () => {
      const u = await user('o1');
      expect(await saveShelf(h.db, u.id, books[0]!.id, 10)).toBe(true);
      expect(await saveShelf(h.db, u.id, books[0]!.id, 11)).toBe(false);
      await saveShelf(h.db, u.id, books[1]!.id, 20);
      await saveShelf(h.db, u.id, books[2]!.id, 30);
      expect(await countShelf(h.db, u.id)).toBe(3);
      const list = await listShelf(h.db, u.id);
      expect(list.map((r) => r.id)).toEqual([books[2]!.id, books[1]!.id, books[0]!.id]);
      expect(list[0]).toMatchObject({ open_id: 'o1', shelved_at: 30 });
      expect((await listShelf(h.db, u.id, { bookId: books[1]!.id })).map((r) => r.id)).toEqual([
        books[1]!.id,
      ]);
      expect(await listShelf(h.db, u.id, { limit: 2 })).toHaveLength(2);
      expect(await removeShelf(h.db, u.id, books[1]!.id)).toBe(true);
      expect(await removeShelf(h.db, u.id, books[1]!.id)).toBe(false);
      expect(await countShelf(h.db)).toBe(2);
    });

    it('a second rating replaces the first; stats count raters and average', async () => {
      const [a, b] = [await user('a'), await user('b')];
      await saveRating(h.db, a.id, books[0]!.id, 2);
      await saveRating(h.db, a.id, books[0]!.id, 5);
      await saveRating(h.db, b.id, books[0]!.id, 4);
      expect(await bookStats(h.db, books[0]!.id)).toMatchObject({ ratingNum: 2, ratingAvg: 4.5 });
      expect(await bookStats(h.db, books[1]!.id)).toMatchObject({ ratingNum: 0, ratingAvg: 0 });
      expect(await userRank(h.db, a.id, books[0]!.id)).toBe(5);
      expect(await userRank(h.db, a.id, books[1]!.id)).toBe(0);
      await expect(saveRating(h.db, a.id, books[1]!.id, 6)).rejects.toThrow();
      expect(await wellRatedBookIds(h.db, 5)).toEqual([books[0]!.id]);
    });

    it('the well-rated pool holds books averaging 4 or more, best first, however few are rated (decisions.md §3 Home)', async () => {
      const [a, b] = [await user('a'), await user('b')];
      await saveRating(h.db, a.id, books[0]!.id, 1); // 1: once the whole pool, as the only rated books
      await saveRating(h.db, a.id, books[1]!.id, 4);
      await saveRating(h.db, b.id, books[1]!.id, 3); // 3.5
      await saveRating(h.db, a.id, books[2]!.id, 4);
      await saveRating(h.db, a.id, books[3]!.id, 5);
      expect(WELL_RATED_MIN_AVG).toBe(4);
      expect(await wellRatedBookIds(h.db, 100)).toEqual([books[3]!.id, books[2]!.id]);
      await saveRating(h.db, b.id, books[1]!.id, 5); // 4.5 now
      expect(await wellRatedBookIds(h.db, 100)).toEqual([books[3]!.id, books[1]!.id, books[2]!.id]);
      expect(await wellRatedBookIds(h.db, 100, { minVotes: 2 })).toEqual([books[1]!.id]);
      expect(await wellRatedBookIds(h.db, 100, { minAvg: 1 })).toHaveLength(4);
    });

    it('views: readers are distinct and newest first, readerNum counts viewers, hot lists are windowed', async () => {
      const users = [];
      for (let i = 0; i < 12; i++) users.push(await user(`v${i}`));
      for (let i = 0; i < 12; i++) await recordView(h.db, users[i]!.id, books[0]!.id, 100 + i);
      await recordView(h.db, users[0]!.id, books[0]!.id, 500);
      const readers = await recentReaders(h.db, books[0]!.id, 10);
      expect(readers).toHaveLength(10);
      expect(readers[0]).toEqual({ nick_name: 'v0', avatar_url: '', last_viewed_at: 500 });
      expect(readers[1]!.nick_name).toBe('v11');
      // the same readers from the index alone, with their profiles read apart (the reader service keeps them)
      const keys = await recentReaderKeys(h.db, books[0]!.id, 10);
      expect(keys.map((k) => k.last_viewed_at)).toEqual(readers.map((r) => r.last_viewed_at));
      expect(keys[0]).toEqual({ user_id: users[0]!.id, last_viewed_at: 500 });
      const profiles = await findUserProfiles(h.db, [users[11]!.id, users[0]!.id, 999_999]);
      expect(profiles.sort((x, y) => x.id - y.id)).toEqual([
        { id: users[0]!.id, nick_name: 'v0', avatar_url: '' },
        { id: users[11]!.id, nick_name: 'v11', avatar_url: '' },
      ]);
      expect(await findUserProfiles(h.db, [])).toEqual([]);
      expect((await bookStats(h.db, books[0]!.id)).readers).toBe(12);
      await recordView(h.db, users[1]!.id, books[1]!.id, 1000);
      await recordView(h.db, users[2]!.id, books[1]!.id, 1001);
      expect(await topViewedBookIds(h.db, 0, 5)).toEqual([
        { bookId: books[0]!.id, views: 13 },
        { bookId: books[1]!.id, views: 2 },
      ]);
      expect(await topViewedBookIds(h.db, 900, 5)).toEqual([{ bookId: books[1]!.id, views: 2 }]);
    });

    it('a view asked for readers returns what reads after it find (counts, rating, readers); on SQLite nothing when not asked', async () => {
      const users = [];
      for (let i = 0; i < 6; i++) users.push(await user(`w${i}`));
      await saveRating(h.db, users[0]!.id, books[0]!.id, 4);
      await saveRating(h.db, users[1]!.id, books[0]!.id, 1);
      const book = books[0]!.id;
      // new readers, a repeat view moving a reader to the front, equal times ordered by user id, a
      // clock behind the others' (the viewer is then not first), and lists shorter than the readers
      const steps: Array<[user: number, at: number, readers: number]> = [
        [0, 100, 4],
        [1, 200, 4],
        [2, 200, 4],
        [3, 300, 4],
        [4, 400, 4],
        [1, 500, 4],
        [5, 250, 4],
        [0, 600, 0],
        [2, 700, 10],
      ];
      for (const [u, at, n] of steps) {
        const viewed = await recordView(h.db, users[u]!.id, book, at, n);
        if (dialect.name === 'sqlite' && n === 0) {
          expect(viewed).toBeUndefined();
          continue;
        }
        expect(viewed).toEqual({
          stats: await bookStats(h.db, book),
          readers: await recentReaderKeys(h.db, book, n),
          rank: await userRank(h.db, users[u]!.id, book),
        });
      }
      expect(await bookStats(h.db, book)).toMatchObject({ views: steps.length, readers: 6, ratingNum: 2 });
    });

    it('views recorded together count as one after another; each answers with its book after them all', async () => {
      const users = [];
      for (let i = 0; i < 4; i++) users.push(await user(`m${i}`));
      const [b0, b1] = [books[0]!.id, books[1]!.id];
      await recordView(h.db, users[3]!.id, b0, 50);
      await saveRating(h.db, users[1]!.id, b1, 5);
      const gone = await insertBook(h.db, sampleBook(), []);
      await deleteBook(h.db, gone.file_name);
      // a reader twice on one book (the later view's time is the earlier one: the last view counts, as
      // one after another it would), two books, a reader already among b0's, and a book deleted since
      const items = [
        { userId: users[0]!.id, bookId: b0, at: 500 },
        { userId: users[1]!.id, bookId: b1, at: 510 },
        { userId: users[0]!.id, bookId: b0, at: 300 },
        { userId: users[2]!.id, bookId: gone.id, at: 520 },
        { userId: users[3]!.id, bookId: b0, at: 530 },
        { userId: users[2]!.id, bookId: b0, at: 540 },
      ];
      const answers = await recordViews(h.db, items, 3);
      expect(answers[3]).toBe('gone');
      const keys = await recentReaderKeys(h.db, b0, 3);
      expect(keys).toEqual([
        { user_id: users[2]!.id, last_viewed_at: 540 },
        { user_id: users[3]!.id, last_viewed_at: 530 },
        { user_id: users[0]!.id, last_viewed_at: 300 },
      ]);
      expect(await bookStats(h.db, b0)).toMatchObject({ views: 5, readers: 3 });
      expect(await bookStats(h.db, b1)).toMatchObject({ views: 1, readers: 1, ratingNum: 1 });
      expect(await countViews(h.db)).toBe(6);
      for (const [i, v] of items.entries()) {
        if (i === 3) continue;
        expect(answers[i]).toEqual({
          stats: await bookStats(h.db, v.bookId),
          readers: await recentReaderKeys(h.db, v.bookId, 3),
          rank: await userRank(h.db, v.userId, v.bookId),
        });
      }
      // asked for no readers, SQLite answers that each view was recorded
      const quiet = await recordViews(h.db, [{ userId: users[1]!.id, bookId: b0, at: 600 }]);
      if (dialect.name === 'sqlite') expect(quiet).toEqual(['recorded']);
      else expect(quiet).toEqual([{ stats: await bookStats(h.db, b0), readers: [], rank: 0 }]);
      // the maintained counts agree with those rebuilt from the logs
      const before = [await bookStats(h.db, b0), await bookStats(h.db, b1)];
      await rebuildActivityStats(h.db, 0);
      expect([await bookStats(h.db, b0), await bookStats(h.db, b1)]).toEqual(before);
      expect(await recordViews(h.db, [])).toEqual([]);
    });

    it('readerNum is a maintained count: repeat views do not move it, a rebuild from the logs agrees', async () => {
      const users = [];
      for (let i = 0; i < 5; i++) users.push(await user(`r${i}`));
      // 20 views of two books by five users in a scrambled order: 5 and 3 distinct readers
      for (let i = 0; i < 20; i++) {
        const u = users[(i * 3) % 5]!;
        await recordView(h.db, u.id, books[0]!.id, 100 + i);
        if (i % 5 < 3) await recordView(h.db, users[i % 5]!.id, books[1]!.id, 200 + i);
      }
      const truth = async (bookId: number) =>
        Number(
          (
            await h.db
              .selectFrom('book_readers')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('book_id', '=', bookId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect([(await bookStats(h.db, books[0]!.id)).readers, await truth(books[0]!.id)]).toEqual([5, 5]);
      expect([(await bookStats(h.db, books[1]!.id)).readers, await truth(books[1]!.id)]).toEqual([3, 3]);
      expect(await bookStats(h.db, books[1]!.id)).toEqual({
        readers: 3,
        ratingNum: 0,
        ratingAvg: 0,
        views: 12,
      });
      await rebuildActivityStats(h.db, 0);
      expect((await bookStats(h.db, books[0]!.id)).readers).toBe(5);
      expect((await bookStats(h.db, books[1]!.id)).readers).toBe(3);
      expect((await bookStats(h.db, books[2]!.id)).readers).toBe(0);
    });

    it('engaged books are what the user viewed, rated 3 or more and shelved, with their categories', async () => {
      const u = await user('fan');
      await recordView(h.db, u.id, books[3]!.id);
      await saveShelf(h.db, u.id, books[0]!.id);
      await saveRating(h.db, u.id, books[1]!.id, 5);
      await saveRating(h.db, u.id, books[2]!.id, 2);
      const engaged = await engagedBookIds(h.db, u.id);
      expect(engaged.sort()).toEqual([books[0]!.id, books[1]!.id, books[3]!.id].sort());
      const categories = await categoriesOfBooks(h.db, [...engaged, 999_999]);
      expect(categories).toEqual(
        new Map(engaged.map((id) => [id, books.find((b) => b.id === id)!.category_id])),
      );
    });

    it('search log: top keywords in a window with distinct searchers', async () => {
      await logSearch(h.db, 'dune', 'a', 100);
      // one keyword however it was typed: search itself ignores case and compatibility forms
      await logSearch(h.db, 'Dune', 'a', 101);
      await logSearch(h.db, ' ＤＵＮＥ ', null, 102);
      await logSearch(h.db, '三体', 'b', 103);
      await logSearch(h.db, 'old', 'c', 1);
      expect(await topKeywords(h.db, 50, 10)).toEqual([
        { keyword: 'dune', count: 3, users: 1 },
        { keyword: '三体', count: 1, users: 1 },
      ]);
    });

    it('search log: top keyword counts of a window, without searchers, in the same order as with them', async () => {
      const searches: Array<[string, string | null, number]> = [
        ['b', 'x', 10],
        ['a', 'x', 11],
        ['c', 'y', 12],
        ['c', 'z', 13],
        ['c', null, 14],
        ['a', 'y', 15],
        ['d', 'x', 40],
        ['c', 'x', 5],
      ];
      for (const [keyword, openId, at] of searches) await logSearch(h.db, keyword, openId, at);
      // [10, 40): the searches at 40 and at 5 are outside it
      expect(await topKeywordCounts(h.db, 10, 10, 40)).toEqual([
        { keyword: 'c', count: 3 },
        { keyword: 'a', count: 2 },
        { keyword: 'b', count: 1 },
      ]);
      expect(await topKeywordCounts(h.db, 10, 2, 40)).toEqual([
        { keyword: 'c', count: 3 },
        { keyword: 'a', count: 2 },
      ]);
      const withSearchers = await topKeywords(h.db, 0, 10);
      expect(await topKeywordCounts(h.db, 0, 10)).toEqual(withSearchers.map(({ users: _, ...k }) => k));
      expect(withSearchers.find((k) => k.keyword === 'c')).toEqual({ keyword: 'c', count: 4, users: 3 });
    });

    it('searches logged together count as the same searches logged one by one', async () => {
      // a cut at 100: searches before it are logged but not recent
      await rebuildActivityStats(h.db, 100);
      const entries = [
        { keyword: 'dune', openId: 'a', at: 150 },
        { keyword: ' DUNE', openId: 'b', at: 160 },
        { keyword: 'dune', openId: null, at: 50 },
        { keyword: '三体', openId: 'a', at: 170 },
        { keyword: 'aged', openId: 'c', at: 10 },
        { keyword: 'Ｄｕｎｅ', openId: 'a', at: 180 },
      ];
      await logSearches(h.db, entries);
      await logSearches(h.db, []);
      const counted = await h.db.selectFrom('search_stats').selectAll().orderBy('keyword').execute();
      const logged = await h.db
        .selectFrom('search_log')
        .select(['keyword', 'open_id'])
        .orderBy('id')
        .execute();
      expect(logged).toEqual([
        { keyword: 'dune', open_id: 'a' },
        { keyword: 'dune', open_id: 'b' },
        { keyword: 'dune', open_id: null },
        { keyword: '三体', open_id: 'a' },
        { keyword: 'aged', open_id: 'c' },
        { keyword: 'dune', open_id: 'a' },
      ]);
      // what the counts would be from the log itself (which has no row for a keyword without recent searches)
      await rebuildActivityStats(h.db, 100);
      expect(await h.db.selectFrom('search_stats').selectAll().orderBy('keyword').execute()).toEqual(
        counted.filter((r) => Number(r.recent) > 0),
      );
      expect(counted.map((r) => [r.keyword, Number(r.recent)])).toEqual([
        ['aged', 0],
        ['dune', 3],
        ['三体', 1],
      ]);
      expect(await topKeywords(h.db, 100, 10)).toEqual([
        { keyword: 'dune', count: 3, users: 2 },
        { keyword: '三体', count: 1, users: 1 },
      ]);
    });

    it('keywords are folded before they are logged', () => {
      expect(['Harry  Potter', 'ＨＡＲＲＹ\tpotter ', 'harry potter'].map(foldKeyword)).toEqual([
        'harry potter',
        'harry potter',
        'harry potter',
      ]);
      expect(foldKeyword('三体')).toBe('三体');
      expect(foldKeyword('ｶﾀｶﾅ')).toBe('カタカナ');
    });

    it('operators have unique usernames', async () => {
      await createOperator(h.db, {
        username: 'root',
        password_hash: 'x',
        nickname: 'Root',
        avatar: '',
        roles: '["admin"]',
      });
      expect((await findOperatorByUsername(h.db, 'root'))?.nickname).toBe('Root');
      await expect(
        createOperator(h.db, { username: 'root', password_hash: 'y', nickname: '', avatar: '', roles: '[]' }),
      ).rejects.toThrow();
    });

    it('pending uploads expire', async () => {
      await createUpload(
        h.db,
        { fileName: 'u1', originalName: 'a.epub', parsed: { title: 'A' }, ttlMs: 100 },
        1000,
      );
      await createUpload(h.db, { fileName: 'u2', originalName: 'b.epub', parsed: {}, ttlMs: 10_000 }, 1000);
      expect(JSON.parse((await findUpload(h.db, 'u1'))!.parsed)).toEqual({ title: 'A' });
      expect((await expiredUploads(h.db, 2000)).map((u) => u.file_name)).toEqual(['u1']);
      expect(await deleteUpload(h.db, 'u1')).toBe(true);
      expect(await deleteUpload(h.db, 'u1')).toBe(false);
    });
  },
);
