import { type DetailFacts, type DetailPlan, PublicUrls, ReaderKeeps, toBookDetail } from '@readlib/catalog';
import { contractSchemas } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DetailAnswers } from '../src/routes/book/detail-answers.js';
import { ok, serve } from '../src/routes/route-options.js';
import { bookRow } from './book-rows.js';

// Issue: performance — a book detail (spec §4.7) is written from bytes kept per book row plus its
// readers and counts; what it sends must be, byte for byte, what the route's schema serialiser sends.
const urls = new PublicUrls('http://files.test');

const reader = (i: number, nick: string) => ({
  avatar_url: i % 3 ? `https://img.example/${i}.png` : '',
  nick_name: nick,
  last_viewed_at: 1_764_000_000_000 + i,
});

const cases: Array<[string, BookRow, DetailFacts]> = [
  ['no readers, no ratings', bookRow(1), { readers: [], readerNum: 0, rank: 0, rankNum: 0, rankAvg: 0 }],
  [
    'CJK, quotes, controls, a line separator and a lone surrogate',
    bookRow(2, {
      title: '红楼梦 — 第一卷 "上"\u2028\u0001\t',
      author: '曹雪芹\ud800',
      selected: 1,
      private: 1,
      cache: 1,
      have_read: 7,
    }),
    {
      readers: [reader(1, '读者"甲"'), reader(2, 'back\\slash\n'), reader(3, '😀\udc00')],
      readerNum: 3,
      rank: 5,
      rankNum: 3,
      rankAvg: 14 / 3,
    },
  ],
  [
    'ten readers, a rounded average',
    bookRow(3, { publisher: '' }),
    {
      readers: Array.from({ length: 10 }, (_, i) => reader(i, `reader ${i}`)),
      readerNum: 1234,
      rank: 3,
      rankNum: 8,
      rankAvg: 4.125,
    },
  ],
];

async function serialised(row: BookRow, facts: DetailFacts): Promise<Buffer> {
  const app = Fastify();
  for (const schema of contractSchemas) app.addSchema(schema);
  serve(app, 'getBookDetail', async () => ok(toBookDetail(row, facts, urls)));
  const res = await app.inject({ url: `/book/detail?fileName=${row.file_name}` });
  await app.close();
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

const planOf = (keeps: ReaderKeeps, row: BookRow, facts: DetailFacts, visited: boolean) => {
  const calls = { facts: 0 };
  const plan: DetailPlan = {
    book: row,
    seen: keeps.versions.seen,
    tag: `${facts.readerNum}:${facts.rankNum}`,
    rank: facts.rank,
    visited,
    facts: async () => {
      calls.facts++;
      return facts;
    },
  };
  return { plan, calls };
};

describe('DetailAnswers bytes', () => {
  it.each(cases)('%s: the same bytes as the schema serialiser', async (_name, row, facts) => {
    const answers = new DetailAnswers(new ReaderKeeps(), urls);
    const expected = await serialised(row, facts);
    expect(answers.bytes(row, facts).toString('utf8')).toBe(expected.toString('utf8'));
    expect(answers.bytes(row, facts).equals(expected)).toBe(true);
    // kept or made, with another caller's rank spliced in
    for (const visited of [false, true, false]) {
      const { plan } = planOf(new ReaderKeeps(), row, facts, visited);
      expect((await answers.envelope(plan)).equals(expected)).toBe(true);
      const other = { ...plan, rank: facts.rank === 5 ? 1 : 5 };
      expect(
        (await answers.envelope(other)).equals(await serialised(row, { ...facts, rank: other.rank })),
      ).toBe(true);
    }
  });

  it('sends every unrated caller the kept bytes themselves, and a rated caller a copy that leaves them as they were', async () => {
    const keeps = new ReaderKeeps();
    const answers = new DetailAnswers(keeps, urls);
    const [, row, facts] = cases[1]!;
    const unrated = planOf(keeps, row, facts, false).plan;
    const first = await answers.envelope({ ...unrated, rank: 0 });
    const before = Buffer.from(first);
    expect(await answers.envelope({ ...unrated, rank: 0 })).toBe(first);
    const rated = await answers.envelope({ ...unrated, rank: 4 });
    expect(rated).not.toBe(first);
    expect(rated.equals(await serialised(row, { ...facts, rank: 4 }))).toBe(true);
    expect(first.equals(before)).toBe(true);
    expect(first.equals(await serialised(row, { ...facts, rank: 0 }))).toBe(true);
  });

  it("keeps a row's part per row object: an edited book is a new row, sent as it now is", () => {
    const answers = new DetailAnswers(new ReaderKeeps(), urls);
    const facts = cases[0]![2];
    const one = bookRow(1);
    const title = (row: BookRow) => JSON.parse(answers.bytes(row, facts).toString('utf8')).data.title;
    expect(title(one)).toBe('Title 1');
    // the memo never changes a row in place; a change written there would not be sent again
    (one as { title: string }).title = 'Changed in place';
    expect(title(one)).toBe('Title 1');
    expect(title(bookRow(1, { title: 'Edited' }))).toBe('Edited');
  });

  it("keeps an answer made without a view, for every caller's rank; one made by a view is not kept", async () => {
    const keeps = new ReaderKeeps();
    const answers = new DetailAnswers(keeps, urls);
    const [, row, facts] = cases[1]!;
    const anonymous = planOf(keeps, row, facts, false);
    await answers.envelope(anonymous.plan);
    await answers.envelope({ ...anonymous.plan, rank: 2 });
    expect(anonymous.calls.facts).toBe(1);

    const other = bookRow(9);
    const viewing = planOf(keeps, other, facts, true);
    await answers.envelope(viewing.plan);
    await answers.envelope(viewing.plan);
    expect(viewing.calls.facts).toBe(2);
    // the next anonymous caller with the same counts makes and keeps it
    const after = planOf(keeps, other, facts, false);
    await answers.envelope(after.plan);
    await answers.envelope(after.plan);
    expect(after.calls.facts).toBe(1);
  });
});
