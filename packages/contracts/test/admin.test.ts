import { describe, expect, it } from 'vitest';
import {
  AdminBook,
  AdminBookDetail,
  AdminCategory,
  AdminUser,
  BookCreateBody,
  BookListQuery,
  BookUpdateBody,
  DashboardTotals,
  FileNameQuery,
  LoginBody,
  LoginData,
  OptionalFileNameQuery,
} from '../src/index.js';
import { check, parseQuery, without } from './helpers.js';
import { adminBook, contents, contentsTree, storedFiles } from './samples.js';

describe('spec §2.10 AdminBook / AdminBookDetail', () => {
  it('accepts an e-book without contents (GET /book/list items)', () => {
    expect(check(AdminBook, adminBook)).toBe(true);
  });
  it('id is a string, category a number', () => {
    expect(check(AdminBook, { ...adminBook, id: 42 })).toBe(false);
    expect(check(AdminBook, { ...adminBook, category: '1' })).toBe(false);
  });
  it.each(Object.keys(adminBook))('requires %s', (key) => {
    expect(check(AdminBook, without(adminBook, key as keyof typeof adminBook))).toBe(false);
  });
  it('GET /book/get and upload add the file paths, contents and a 3-level contentsTree', () => {
    const detail = { ...adminBook, ...storedFiles, contents, contentsTree };
    expect(check(AdminBookDetail, detail)).toBe(true);
    expect(check(AdminBookDetail, adminBook)).toBe(false);
    expect(check(AdminBookDetail, { ...detail, contentsTree: [{ id: 'x' }] })).toBe(false);
    // decisions.md §4 (verified against the original clients): the array, not the {children} root
    expect(check(AdminBookDetail, { ...detail, contentsTree: { children: contentsTree } })).toBe(false);
  });
  it.each(Object.keys(storedFiles))('GET /book/get and upload require %s (a string)', (key) => {
    const detail = { ...adminBook, ...storedFiles, contents, contentsTree };
    expect(check(AdminBookDetail, without(detail, key as keyof typeof detail))).toBe(false);
    expect(check(AdminBookDetail, { ...detail, [key]: null })).toBe(false);
  });
});

describe('spec §2.11 AdminUser, §2.12 AdminCategory, §4.11 totals and login', () => {
  it('AdminUser has roles as an array', () => {
    const user = { avatar: 'a.png', id: 1, nickname: 'Admin', username: 'admin', roles: ['admin'] };
    expect(check(AdminUser, user)).toBe(true);
    expect(check(AdminUser, { ...user, roles: 'admin' })).toBe(false);
  });
  it('AdminCategory is {label, value, num}', () => {
    expect(check(AdminCategory, { label: 'History', value: 3, num: 12 })).toBe(true);
    expect(check(AdminCategory, { label: 'History', value: '3', num: 12 })).toBe(false);
  });
  it('DashboardTotals has book, rank, shelf, user', () => {
    expect(check(DashboardTotals, { book: 10, rank: 3, shelf: 4, user: 2 })).toBe(true);
    expect(check(DashboardTotals, { book: 10, rank: 3, shelf: 4 })).toBe(false);
  });
  it('LoginBody requires username and password, bounded', () => {
    expect(check(LoginBody, { username: 'admin', password: 'secret' })).toBe(true);
    expect(check(LoginBody, { username: 'admin' })).toBe(false);
    expect(check(LoginBody, { username: '', password: 'secret' })).toBe(false);
    expect(check(LoginBody, { username: 'x'.repeat(129), password: 'p' })).toBe(false);
    expect(check(LoginBody, { username: 'a', password: 'x'.repeat(257) })).toBe(false);
    expect(check(LoginData, { token: 'jwt' })).toBe(true);
  });
});

describe('spec §4.11 BookListQuery', () => {
  it('applies page 1 and pageSize 20 by default', () => {
    expect(parseQuery(BookListQuery, {})).toEqual({ page: 1, pageSize: 20 });
    expect(parseQuery(BookListQuery, { page: '2', pageSize: '50', title: 'a' })).toEqual({
      page: 2,
      pageSize: 50,
      title: 'a',
    });
  });
  it('rejects out-of-range paging', () => {
    expect(check(BookListQuery, { page: 0 })).toBe(false);
    expect(check(BookListQuery, { pageSize: 0 })).toBe(false);
    expect(check(BookListQuery, { pageSize: 101 })).toBe(true); // capped by the service, not refused
    expect(check(BookListQuery, { page: 1.5 })).toBe(false);
  });
  it('sort is +field or -field (decisions.md §4)', () => {
    for (const sort of ['+id', '-title', 'author']) expect(check(BookListQuery, { sort })).toBe(true);
    for (const sort of ['id desc', '-', '--id', 'id;drop'])
      expect(check(BookListQuery, { sort })).toBe(false);
  });
});

describe('spec §4.11 fileName queries', () => {
  it('FileNameQuery requires fileName, OptionalFileNameQuery does not', () => {
    expect(check(FileNameQuery, { fileName: 'f' })).toBe(true);
    expect(check(FileNameQuery, {})).toBe(false);
    expect(check(OptionalFileNameQuery, {})).toBe(true);
    expect(check(OptionalFileNameQuery, { fileName: 'f' })).toBe(true);
  });
});

describe('spec §4.11 BookUpdateBody / BookCreateBody', () => {
  const update = {
    fileName: 'f',
    author: 'a',
    cover: 'c',
    coverPath: '/img/f.jpeg',
    filePath: '/epub/f.epub',
    language: 'en',
    originalName: 'book.epub',
    publisher: 'p',
    rootFile: 'OEBPS/package.opf',
    title: 't',
    unzipPath: '/unzip/f',
  };
  it('accepts every writable field; fileName alone is enough', () => {
    expect(check(BookUpdateBody, update)).toBe(true);
    expect(check(BookUpdateBody, { fileName: 'f' })).toBe(true);
    expect(check(BookUpdateBody, { title: 't' })).toBe(false);
  });
  it('category is an id, as a number or a digit string; categoryText a name (decisions.md §4)', () => {
    expect(check(BookUpdateBody, { fileName: 'f', category: 3 })).toBe(true);
    expect(check(BookUpdateBody, { fileName: 'f', category: '3' })).toBe(true);
    expect(check(BookUpdateBody, { fileName: 'f', category: 'History' })).toBe(false);
    expect(check(BookUpdateBody, { fileName: 'f', category: 1.5 })).toBe(false);
    expect(check(BookUpdateBody, { fileName: 'f', categoryText: 'History' })).toBe(true);
    expect(check(BookUpdateBody, { fileName: 'f', categoryText: '' })).toBe(false);
  });
  it('create accepts url as well; update does not', () => {
    expect(check(BookCreateBody, { ...update, url: 'https://example.com/f.epub' })).toBe(true);
    expect(check(BookUpdateBody, { ...update, url: 'https://example.com/f.epub' })).toBe(false);
  });
  it('the spec lists every field: unknown fields are not part of the body', () => {
    expect(check(BookCreateBody, { fileName: 'f', contents: [] })).toBe(false);
  });
});
