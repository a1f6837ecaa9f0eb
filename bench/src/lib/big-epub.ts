import { makeEpub } from '@readlib/epub/testing';

const MiB = 1024 * 1024;

/**
 * An EPUB of about `mb` MiB in chapters of ~4 MiB: base64 of random `filler` bytes deflates to ~75%,
 * so ~1.33 MiB of text per MiB of archive. `filler` must hold at least `mb` MiB.
 */
export function bigEpub(title: string, mb: number, filler: Buffer): Buffer {
  const chapters = Math.max(4, Math.ceil(mb / 4));
  const perChapter = Math.ceil((mb * MiB) / 0.76 / chapters);
  const text = filler.toString('base64');
  return makeEpub({
    title,
    creators: ['Bench Author'],
    publisher: 'Bench Press',
    subjects: ['Literature'],
    cover: true,
    chapters: Array.from({ length: chapters }, (_, c) => {
      const start = (c * 7919) % Math.max(1, text.length - perChapter);
      return { title: `Chapter ${c + 1}`, body: `<p>${text.slice(start, start + perChapter)}</p>` };
    }),
  });
}
