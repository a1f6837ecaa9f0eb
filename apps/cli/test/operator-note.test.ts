import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { testConfig } from '@readlib/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operatorNoteFile } from '../src/operator-note.js';
import { spawnStart } from './run-cli.js';

// README: the generated development password is kept in ./data/operator-login.txt
describe('where pnpm start keeps the generated operator password', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-operator-note-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('by default ./data/operator-login.txt, beside the SQLite file; on PostgreSQL ./data of the working directory', () => {
    expect(operatorNoteFile(testConfig({ DATABASE_URL: './data/library.db' }))).toBe(
      resolve('data/operator-login.txt'),
    );
    const elsewhere = testConfig({ DATABASE_URL: '/var/lib/readlib/library.db', STORAGE_DIR: '/srv/books' });
    expect(operatorNoteFile(elsewhere)).toBe('/var/lib/readlib/operator-login.txt');
    const postgres = testConfig({ DATABASE_URL: 'postgres://u@db:5432/readlib', STORAGE_DIR: '/srv/books' });
    expect(operatorNoteFile(postgres)).toBe(resolve('data/operator-login.txt'));
  });

  it('a store elsewhere (STORAGE_DIR=<dir>/srv/books) gets nothing in its parent: the note is beside the database, mode 0600', async () => {
    const store = join(dir, 'srv', 'books');
    // a note of a previous start, readable by all: replaced, never reused with its mode
    writeFileSync(join(dir, 'operator-login.txt'), 'admin stale\n', { mode: 0o644 });
    const started = spawnStart(dir, { STORAGE_DIR: store });
    const banner = await started.printed(/operator {4}.*\n/);
    expect((await started.stop()).code).toBe(0);

    const note = join(dir, 'operator-login.txt');
    const shown = /username: admin {3}password: (\S+) {3}\(generated; saved in (\S+)\)/.exec(banner);
    expect(shown?.[2]).toBe(note);
    expect(readFileSync(note, 'utf8')).toBe(`admin ${shown?.[1]}\n`);
    expect(statSync(note).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, 'srv', 'operator-login.txt'))).toBe(false);
    expect(existsSync(join(store, 'operator-login.txt'))).toBe(false);
  }, 60_000);

  it('a database in a folder of its own, away from the store, gets its note beside it', async () => {
    const dbDir = join(dir, 'db');
    mkdirSync(dbDir);
    const started = spawnStart(dir, { DATABASE_URL: join(dbDir, 'library.db') });
    await started.printed(/operator {4}.*\n/);
    expect((await started.stop()).code).toBe(0);
    expect(existsSync(join(dbDir, 'operator-login.txt'))).toBe(true);
    expect(existsSync(join(dir, 'operator-login.txt'))).toBe(false);
  }, 60_000);
});
