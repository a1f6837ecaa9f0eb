import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dialects, get, type Harness, harness, register, seedBook, shelfArg, view } from './helpers.js';

// Row columns that must never reach a client: the response schemas strip whatever they do not declare.
const ROW_ONLY = [
  'grams',
  'pos',
  'cover_path',
  'file_path',
  'unzip_path',
  'category_id',
  'created_at',
  'user_id',
  'password_hash',
  'description',
  'shelved_at',
  'open_id',
];

function keysDeep(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.add(k);
      keysDeep(v, out);
    }
  }
  return out;
}

describe.each(dialects)(
  'spec §2 / decisions.md §2 responses carry declared fields only on $name',
  (dialect) => {
    let t: Harness;
    beforeEach(async () => {
      t = await harness(dialect);
    });
    afterEach(async () => t.close());

    it('no row column leaks from any endpoint', async () => {
      const b = await seedBook(t, { title: 'Leak test', description: 'secret description' });
      await register(t, 'u1', { nickName: 'N' });
      await get(t, '/book/shelf/save', { shelf: shelfArg('u1', b.file_name) });
      await view(t, b.file_name, 'u1');
      const urls: Array<[string, Record<string, string>]> = [
        ['/book/home/v2', { openId: 'u1' }],
        ['/book/home/recommend/v2', {}],
        ['/book/home/freeRead/v2', {}],
        ['/book/home/hotBook/v2', {}],
        ['/book/hot-search', {}],
        ['/book/category/list/v2', {}],
        ['/book/search', { keyword: 'leak' }],
        ['/book/search-list', { author: 'Ada' }],
        ['/book/detail', { fileName: b.file_name, openId: 'u1' }],
        ['/book/contents', { fileName: b.file_name }],
        ['/book/shelf/get', { openId: 'u1' }],
        ['/user/day', { openId: 'u1' }],
      ];
      for (const [path, q] of urls) {
        const res = await get(t, path, q);
        expect(res.status, path).toBe(200);
        const keys = keysDeep(res.body);
        for (const col of ROW_ONLY) expect(keys.has(col), `${path} leaks ${col}`).toBe(false);
        expect(JSON.stringify(res.body)).not.toContain('secret description');
      }
    });

    it('an undeclared field in a data object is stripped by serialisation', async () => {
      const b = await seedBook(t);
      const { body } = await get(t, '/book/detail', { fileName: b.file_name });
      expect(Object.keys(body)).toEqual(['error_code', 'msg', 'data']);
      expect(Object.keys(body.data).sort()).toEqual(
        [
          'id',
          'fileName',
          'cover',
          'title',
          'author',
          'publisher',
          'bookId',
          'category',
          'categoryText',
          'language',
          'rootFile',
          'selected',
          'private',
          'cache',
          'haveRead',
          'opf',
          'readers',
          'readerNum',
          'rank',
          'rankNum',
          'rankAvg',
        ].sort(),
      );
    });
  },
);
