import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { importEpub } from '@readlib/catalog';
import { FileStore } from '@readlib/epub';
import { makeEpub } from '@readlib/epub/testing';
import type { Harness } from './helpers.js';

const FIXTURES = new URL('../../../packages/epub/fixtures/real/', import.meta.url);

/** A port free on 127.0.0.1 now, for a service whose PUBLIC_BASE_URL must name it before it listens. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A book of the generated part of the catalogue. */
export interface GeneratedBook {
  title: string;
  author: string;
  publisher: string;
  category: string;
  language?: string;
  cover?: boolean;
  description?: string;
}

/**
 * More than two pages of real books, imported as `pnpm cli import` does (files in the store, rows in
 * the catalogue): the real EPUB fixtures, two Chinese books, and generated editions spread over three
 * authors, two publishers and two categories, a third of them without a cover.
 */
export const GENERATED: GeneratedBook[] = [
  {
    title: '红楼梦',
    author: '曹雪芹',
    publisher: '人民文学出版社',
    category: '古典文学',
    language: 'zh-CN',
    cover: true,
    description: '中国古典四大名著之一',
  },
  { title: '三体', author: '刘慈欣', publisher: '重庆出版社', category: 'Science Fiction', language: 'zh' },
  ...Array.from({ length: 33 }, (_, i) => ({
    title: `Generated Volume ${i + 1}`,
    author: ['Ada Writer', 'Ben Author', 'Cy Novelist'][i % 3]!,
    publisher: ['Open Press', 'Open Press Two'][i % 2]!,
    category: ['Essays', 'Science Fiction'][i % 2]!,
    cover: i % 3 !== 0,
  })),
];

/** Imports the real fixtures and GENERATED into the harness's database and store. */
export async function importCatalogue(t: Harness): Promise<void> {
  const deps = { db: t.h.db, store: new FileStore(t.storage), limits: {} };
  for (const name of readdirSync(FIXTURES)
    .filter((n) => n.endsWith('.epub'))
    .sort()) {
    await importEpub(deps, readFileSync(new URL(name, FIXTURES)), { category: 'Manuals' });
  }
  for (const b of GENERATED) {
    const epub = makeEpub({
      title: b.title,
      creators: [b.author],
      publisher: b.publisher,
      language: b.language ?? 'en',
      cover: b.cover ?? false,
      ...(b.description ? { description: b.description } : {}),
      chapters: [{ title: 'One' }],
    });
    await importEpub(deps, epub, { category: b.category });
  }
}
