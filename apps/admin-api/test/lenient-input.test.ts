import { findBookByFileName, insertBook } from '@readlib/data';
import { sampleBook, testDialects } from '@readlib/data/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, harness } from './helpers.js';

const dialects = await testDialects();

// docs/errors.md: input is read leniently where its meaning is plain (the course project's clients send
// form-encoded bodies, all strings); a value that cannot be read as its type is a 400 (decisions.md §2).
describe.each(dialects)('lenient input of the admin API on $name', (dialect) => {
  let t: Harness;
  beforeEach(async () => {
    t = await harness(dialect);
    for (const n of [1, 2, 3])
      await insertBook(t.h.db, sampleBook({ file_name: `b${n}`, title: `Book ${n}` }), []);
  });
  afterEach(async () => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: t.auth });

  it('numbers as JavaScript reads them; anything else is 400 naming the field', async () => {
    const pageOf = async (page: string) => (await get(`/book/list?page=${page}&pageSize=1&sort=id`)).json();
    const second = await pageOf('2');
    expect(second).toMatchObject({ code: 0, page: 2, total: 3 });
    for (const same of ['0x2', '2e0', '2.0']) {
      expect(await pageOf(same)).toEqual(second);
    }
    for (const bad of ['abc', '1.5', 'Infinity', '']) {
      const res = await get(`/book/list?page=${bad}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code: -1, msg: expect.stringMatching(/page/) });
    }
  });

  it('null for a string is "", undeclared body fields are ignored, a form body is read like JSON', async () => {
    const update = (payload: object | string, type = 'application/json') =>
      t.app.inject({
        method: 'POST',
        url: '/book/update',
        payload,
        headers: { ...t.auth, 'content-type': type },
      });
    const res = await update({ fileName: 'b1', author: null, publisher: 'North', notAField: 'x' });
    expect(res.json()).toEqual({ code: 0, msg: expect.any(String), data: null });
    expect(await findBookByFileName(t.h.db, 'b1')).toMatchObject({ author: '', publisher: 'North' });

    const form = await update('fileName=b2&publisher=South%20Press', 'application/x-www-form-urlencoded');
    expect(form.json()).toMatchObject({ code: 0 });
    expect(await findBookByFileName(t.h.db, 'b2')).toMatchObject({ publisher: 'South Press' });
  });

  it('a boolean is no string or number: 400 naming the field, and the book is left as it was', async () => {
    const before = await findBookByFileName(t.h.db, 'b3');
    for (const [field, value, types] of [
      ['title', false, 'string'],
      ['category', true, 'integer or string'],
      ['author', true, 'string'],
    ] as const) {
      for (const url of ['/book/update', '/book/create']) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          payload: { fileName: 'b3', [field]: value },
          headers: t.auth,
        });
        expect(res.statusCode, `${url} ${field}`).toBe(400);
        expect(res.json()).toEqual({
          code: -1,
          msg: `invalid parameter: body/${field} must be ${types}, not ${value}`,
        });
      }
    }
    expect(await findBookByFileName(t.h.db, 'b3')).toEqual(before);
    // numbers and numeric strings are still read as the field's type
    const numbers = await t.app.inject({
      method: 'POST',
      url: '/book/update',
      payload: { fileName: 'b3', title: 1984, category: '1' },
      headers: t.auth,
    });
    expect(numbers.json()).toMatchObject({ code: 0 });
    expect(await findBookByFileName(t.h.db, 'b3')).toMatchObject({ title: '1984', category_id: 1 });
  });

  it('a category neither a number nor digits: one clause naming what each accepted form asks', async () => {
    const before = await findBookByFileName(t.h.db, 'b2');
    for (const [category, number] of [
      ['fiction', 'be integer'],
      [-1, 'be >= 0'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/book/update',
        payload: { fileName: 'b2', category },
        headers: t.auth,
      });
      expect(res.statusCode, String(category)).toBe(400);
      expect(res.json()).toEqual({
        code: -1,
        msg: `invalid parameter: body/category must ${number} or match pattern "^[0-9]+$"`,
      });
    }
    expect(await findBookByFileName(t.h.db, 'b2')).toEqual(before);
  });
});
