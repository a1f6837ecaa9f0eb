import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { makeEpub } from '@readlib/epub/testing';
import { coverPng } from './cover-png.js';
import { DEMO_BOOKS } from './demo-books.js';

/** Real, freely licensed EPUBs that packages/epub tests with (licences in its fixtures/real/LICENSES.md). */
export const REAL_EPUB_DIR = fileURLToPath(
  new URL('../../../../packages/epub/fixtures/real/', import.meta.url),
);

export interface DemoInput {
  name: string;
  load(): Promise<Buffer>;
}

/** The demo set: the real EPUBs first, then generated editions (every third without a cover, to show both). */
export async function demoInputs(): Promise<DemoInput[]> {
  const real = (await readdir(REAL_EPUB_DIR)).filter((f) => f.endsWith('.epub')).sort();
  const inputs: DemoInput[] = real.map((f) => ({ name: f, load: () => readFile(REAL_EPUB_DIR + f) }));
  DEMO_BOOKS.forEach((b, i) => {
    inputs.push({
      name: `${b.title}.epub`,
      load: async () =>
        makeEpub({
          version: i % 2 === 0 ? 3 : 2,
          title: b.title,
          creators: [b.author],
          publisher: b.publisher,
          language: b.language,
          subjects: [b.subject],
          identifier: `urn:readlib:demo:${i + 1}`,
          description: `A demo edition of ${b.title}: chapter titles only.`,
          ...(i % 3 === 2 ? {} : { cover: coverPng((i * 47) % 360) }),
          chapters: b.chapters.map((title) => ({
            title,
            body: `<h1>${title}</h1><p>This demo edition of ${b.title} by ${b.author} carries the chapter titles only.</p>`,
          })),
        }),
    });
  });
  return inputs;
}
