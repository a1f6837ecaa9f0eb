import type { BookRow } from '@readlib/data';

/** A book row as the catalogue memo hands it out, for tests of serialised answers; odd ids have a cover. */
export const bookRow = (id: number, fields: Partial<BookRow> = {}): BookRow =>
  ({
    id,
    file_name: `b-${id}`,
    title: `Title ${id}`,
    author: 'Ann "the" Author\\',
    publisher: '人民出版社',
    language: 'zh',
    category_id: 3,
    category_name: 'History',
    root_file: 'OEBPS/content.opf',
    cover_path: id % 2 ? `img/b-${id}.jpg` : '',
    selected: 0,
    private: 0,
    cache: 0,
    have_read: 0,
    ...fields,
  }) as BookRow;
