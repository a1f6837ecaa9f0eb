import { type HomeRows, PublicUrls, ReaderKeeps, toHomeData } from '@readlib/catalog';
import { contractSchemas, HomeData } from '@readlib/contracts';
import type { BookRow } from '@readlib/data';
import { Value } from '@sinclair/typebox/value';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { HomeAnswers } from '../src/routes/home/home-answer.js';
import { keptBytes } from '../src/routes/route-options.js';
import { bookRow } from './book-rows.js';

// Issue: performance — the home page (spec §4.1) is serialised from parts kept per book row and per
// category list; what it sends must be the contract's HomeData, as the route's schema serialiser sent it.
const urls = new PublicUrls('http://files.test');
const book = (id: number, title: string): BookRow => bookRow(id, { title });

const rows = (shelf: BookRow[]): HomeRows => ({
  hotSearch: { num: 12, keyword: 'and\u2028"quoted"' },
  shelf,
  recommend: [book(3, 'Three')],
  freeRead: [book(4, 'Four'), book(5, 'Five')],
  hotBook: [],
  category: [{ category: 3, categoryText: 'History', num: 2, cover: 'http://files.test/res/a', cover2: '' }],
  banner: { img: 'http://x/img.png', title: 'T', subTitle: 'S', url: 'http://x/' },
  shelfCount: 7,
});

describe('HomeAnswers', () => {
  it('sends the envelope of HomeData the mappers build, valid against the contract', () => {
    const home = rows([book(1, 'One'), book(2, 'Two\\')]);
    const sent = JSON.parse(new HomeAnswers(urls, new ReaderKeeps()).json(home));
    expect(sent).toEqual({ error_code: 0, msg: 'success', data: toHomeData(home, urls) });
    expect(Value.Check(HomeData, contractSchemas, sent.data)).toBe(true);
    expect(sent.data.shelf[1]).toMatchObject({ title: 'Two\\', cover: '', bookId: 'b-2' });
  });

  it('keeps a summary per row object: an edited book is a new row, sent as it now is', () => {
    const answers = new HomeAnswers(urls, new ReaderKeeps());
    const one = book(1, 'One');
    expect(JSON.parse(answers.json(rows([one]))).data.shelf[0].title).toBe('One');
    // the memo never changes a row in place; a change written there would not be sent again
    (one as { title: string }).title = 'Changed in place';
    expect(JSON.parse(answers.json(rows([one]))).data.shelf[0].title).toBe('One');
    expect(JSON.parse(answers.json(rows([book(1, 'Edited')]))).data.shelf[0].title).toBe('Edited');
  });
});

describe('HomeAnswers bytes', () => {
  it('keeps the shared part per category list and banner: another banner or list is sent as it is', () => {
    const answers = new HomeAnswers(urls, new ReaderKeeps());
    const home = rows([book(1, 'One')]);
    const first = JSON.parse(answers.bytes(home).toString('utf8')).data;
    expect(first.banner.title).toBe('T');
    const other = { ...home, banner: { ...home.banner, title: 'Other' } };
    expect(JSON.parse(answers.json(other)).data.banner.title).toBe('Other');
    const renamed = { ...home, category: [{ ...home.category[0]!, categoryText: 'Annals' }] };
    expect(JSON.parse(answers.json(renamed)).data.category[0].categoryText).toBe('Annals');
    expect(JSON.parse(answers.json({ ...home, shelfCount: 9 })).data.shelfCount).toBe(9);
    // the top keyword is kept by its words and count, so a new count or keyword is sent as it is
    for (const hotSearch of [
      { num: 13, keyword: home.hotSearch.keyword },
      { num: 13, keyword: '三国' },
    ])
      expect(JSON.parse(answers.json({ ...home, hotSearch })).data.hotSearch).toEqual(hotSearch);
  });
});

describe('HomeAnswers.sendCategories', () => {
  it('sends the category list envelope, serialised once per list object', async () => {
    const answers = new HomeAnswers(urls, new ReaderKeeps());
    const app = Fastify();
    let list = rows([]).category;
    app.get('/c', async (_req, reply) => answers.sendCategories(reply, list));
    const first = await app.inject('/c');
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json()).toEqual({ error_code: 0, msg: 'success', data: list });
    // the list a cache hands out again is the same object; a recomputed list is a new one
    list[0]!.num = 99;
    expect((await app.inject('/c')).json().data[0].num).toBe(2);
    list = [{ ...list[0]!, num: 5 }];
    expect((await app.inject('/c')).json().data[0].num).toBe(5);
    await app.close();
  });
});

describe('keptBytes', () => {
  it('is the UTF-8 of the text in a buffer of its own, not a slice of a slab shared with others', () => {
    const text = '{"title":"红楼梦","n":1}';
    const bytes = keptBytes(text);
    expect(bytes.toString('utf8')).toBe(text);
    expect(bytes.length).toBe(Buffer.byteLength(text));
    // a kept slice of Node's 8 KB pool would keep the whole pool alive
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    expect(Buffer.from(text).buffer.byteLength).toBeGreaterThan(bytes.length);
  });
});
