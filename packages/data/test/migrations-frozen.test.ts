import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { facetGrams } from '../src/migrations/migration-helpers.js';

const folder = new URL('../src/migrations/', import.meta.url);

describe('migrations are frozen in time', () => {
  it('import only kysely and their own folder, never live code that may change later', async () => {
    const files = (await readdir(folder)).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = await readFile(new URL(file, folder), 'utf8');
      const sources = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]!);
      for (const source of sources)
        expect([file, source]).toEqual([file, expect.stringMatching(/^(kysely|\.\/[^/]+)$/)]);
    }
  });

  it("the facet index's tokens, as the 2026-11-22 migration wrote them", () => {
    // 'a' 0x61, 'b' 0x62, 'c' 0x63; pairs split by white space are not tokens; NFKC and lower case first
    expect(facetGrams('author', 'Ab c')).toBe('a61 a6162 a62 a63');
    expect(facetGrams('publisher', 'ＡＢ')).toBe('p61 p6162 p62');
    expect(facetGrams('author', '三体')).toBe('ae4b889 ae4b889e4bd93 ae4bd93');
  });
});
