import type { Insertable } from 'kysely';
import type { NewBook, UsersTable } from '../database.js';
import { userDefaults } from '../repositories/user.repository.js';

let seq = 0;

/** A plausible book row for tests; every call gets a unique fileName. */
export function sampleBook(overrides: Partial<NewBook> = {}): NewBook {
  seq += 1;
  return {
    file_name: `book-${process.pid}-${seq}`,
    title: `Sample Book ${seq}`,
    author: 'Ada Writer',
    publisher: 'Open Press',
    language: 'en',
    category_id: 1,
    root_file: 'OEBPS/content.opf',
    cover_path: `img/book-${seq}.png`,
    file_path: `epub/book-${seq}.epub`,
    unzip_path: `unzip/book-${seq}`,
    original_name: '',
    url: '',
    description: '',
    selected: 0,
    private: 0,
    cache: 0,
    have_read: 0,
    ...overrides,
  };
}

/** A users row as written straight into the table, with the defaults of a first registration. */
export function sampleUser(openId: string): Insertable<UsersTable> {
  return { open_id: openId, ...userDefaults('wx'), created_at: 1, updated_at: 1 };
}
