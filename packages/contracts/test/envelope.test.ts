import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import {
  AdminAck,
  AdminBook,
  AdminEnvelope,
  AdminError,
  AdminPage,
  BookSummary,
  ReaderAck,
  ReaderEnvelope,
  ReaderError,
  ref,
} from '../src/index.js';
import { check } from './helpers.js';
import { adminBook, bookSummary } from './samples.js';

describe('spec §1 / decisions.md §2 reader envelope', () => {
  const books = ReaderEnvelope(Type.Array(ref(BookSummary)));
  it('wraps data with error_code and msg', () => {
    expect(check(books, { error_code: 0, msg: 'ok', data: [bookSummary] })).toBe(true);
    expect(check(books, { error_code: 0, msg: 'ok' })).toBe(false);
    expect(check(books, { code: 0, msg: 'ok', data: [] })).toBe(false);
    expect(check(books, { error_code: 0, msg: 'ok', data: [{ id: 1 }] })).toBe(false);
  });
  it('error_code is an integer', () => {
    expect(check(books, { error_code: '0', msg: 'ok', data: [] })).toBe(false);
    expect(check(books, { error_code: 0.5, msg: 'ok', data: [] })).toBe(false);
  });
  it('ReaderAck has no data; ReaderError allows data null or absent', () => {
    expect(check(ReaderAck(), { error_code: 0, msg: 'ok' })).toBe(true);
    expect(check(ReaderError, { error_code: 2, msg: 'bad' })).toBe(true);
    expect(check(ReaderError, { error_code: 2, msg: 'bad', data: null })).toBe(true);
    expect(check(ReaderError, { error_code: 2, msg: 'bad', data: {} })).toBe(false);
  });
});

describe('spec §4.11 / decisions.md §2 admin envelope', () => {
  it('wraps data with code and msg', () => {
    const envelope = AdminEnvelope(ref(AdminBook));
    expect(check(envelope, { code: 0, msg: 'ok', data: adminBook })).toBe(true);
    expect(check(envelope, { error_code: 0, msg: 'ok', data: adminBook })).toBe(false);
  });
  it('AdminAck carries data null; AdminError data null or absent', () => {
    expect(check(AdminAck(), { code: 0, msg: 'ok', data: null })).toBe(true);
    expect(check(AdminAck(), { code: 0, msg: 'ok' })).toBe(false);
    expect(check(AdminError, { code: -2, msg: 'token expired' })).toBe(true);
    expect(check(AdminError, { code: -1, msg: 'x', data: null })).toBe(true);
  });
  it('AdminPage carries page, pageSize and total next to data', () => {
    const page = AdminPage(ref(AdminBook));
    const body = { code: 0, msg: 'ok', data: [adminBook], page: 1, pageSize: 20, total: 1 };
    expect(check(page, body)).toBe(true);
    expect(check(page, { ...body, total: undefined })).toBe(false);
    expect(check(page, { ...body, data: adminBook })).toBe(false);
  });
});
