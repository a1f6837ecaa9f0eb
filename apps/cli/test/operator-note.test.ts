import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { testConfig } from '@readlib/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operatorNoteFile, rememberDevPassword } from '../src/operator-note.js';
import { spawnStart } from './run-cli.js';

// README: the generated development password is kept in ./data/operator-login.txt
describe('where pnpm start keeps the generated operator password', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'readlib-operator-note-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('by default ./data/operator-login.txt, beside the SQLite file; one note per database', () => {
    const noteOf = (env: Record<string, string>) => operatorNoteFile(testConfig(env));
    expect(noteOf({ DATABASE_URL: './data/library.db' })).toBe(resolve('data/operator-login.txt'));
    expect(noteOf({ DATABASE_URL: '/var/lib/readlib/library.db', STORAGE_DIR: '/srv/books' })).toBe(
      '/var/lib/readlib/operator-login.txt',
    );
    expect(noteOf({ DATABASE_URL: './data/trial.db' })).toBe(resolve('data/trial.operator-login.txt'));
    // on PostgreSQL in ./data of the working directory, named by database, host and port (never the password)
    expect(noteOf({ DATABASE_URL: 'postgres://u:secret@db:5432/readlib', STORAGE_DIR: '/srv/books' })).toBe(
      resolve('data/operator-login.readlib@db-5432.txt'),
    );
    expect(noteOf({ DATABASE_URL: 'postgres://u@db.internal:6432/readlib' })).toBe(
      resolve('data/operator-login.readlib@db.internal-6432.txt'),
    );
    expect(noteOf({ DATABASE_URL: 'postgresql://reader@localhost' })).toBe(
      resolve('data/operator-login.reader@localhost-5432.txt'),
    );
    expect(noteOf({ DATABASE_URL: 'postgres://u:pw@/readlib?host=/run/postgresql' })).toBe(
      resolve('data/operator-login.readlib@_run_postgresql-5432.txt'),
    );
    expect(noteOf({ DATABASE_URL: 'postgres:///readlib' })).toBe(
      resolve('data/operator-login.readlib@localhost-5432.txt'),
    );
    // a stray % (which DATABASE_URL's check admits) is a character like any other
    expect(noteOf({ DATABASE_URL: 'postgres://u@db/books%zz' })).toBe(
      resolve('data/operator-login.books_zz@db-5432.txt'),
    );
    // one DATABASE_URL's check admits (it percent-encodes the space) and the URL parser refuses as written
    const unparsed = noteOf({ DATABASE_URL: 'postgres://u:secret@db host/readlib' });
    expect(unparsed).toMatch(/data\/operator-login\.[0-9a-f]{16}\.txt$/);
  });

  it('an in-memory database gets no note: its operator, and the password shown, end with the process', () => {
    const memory = testConfig({ DATABASE_URL: ':memory:' });
    expect(operatorNoteFile(memory)).toBeUndefined();
    expect(rememberDevPassword(memory, { created: true, username: 'admin', generatedPassword: 'pw-1' })).toBe(
      'operator    username: admin   password: pw-1   (generated for this run: the database is in memory)',
    );
    expect(existsSync(resolve('data'))).toBe(false);
  });

  it("a start on another database leaves this one's note, which its next start shows again", async () => {
    const passwordShown = async (env: Record<string, string>) => {
      const started = spawnStart(dir, env);
      const banner = await started.printed(/operator {4}.*\n/);
      expect((await started.stop()).code).toBe(0);
      return /password: (\S+) {3}\(generated; saved in (\S+)\)/.exec(banner)?.slice(1);
    };
    const [first, firstNote] = (await passwordShown({})) ?? [];
    const [trial, trialNote] = (await passwordShown({ DATABASE_URL: join(dir, 'trial.db') })) ?? [];
    expect(trialNote).toBe(join(dir, 'trial.operator-login.txt'));
    expect(trial).not.toBe(first);
    expect(firstNote).toBe(join(dir, 'operator-login.txt'));
    expect(readFileSync(join(dir, 'operator-login.txt'), 'utf8')).toBe(`admin ${first}\n`);
    expect(await passwordShown({})).toEqual([first, firstNote]);
  }, 90_000);

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
