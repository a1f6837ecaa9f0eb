import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { FirstOperatorResult } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';

/**
 * One note per database, so that a start on another database never overwrites (and later shows) a
 * password of this one. Beside the SQLite file the operator lives in: `operator-login.txt` for the
 * default `library.db` (`./data/operator-login.txt`), `<name>.operator-login.txt` for `<name>.db`. On
 * PostgreSQL, in `./data/` of the working directory, named by database, host and port
 * (`operator-login.readlib@db-5432.txt`). None for an in-memory database, whose operator ends with the
 * process. Never in or beside STORAGE_DIR: the store is served under /res/ (and by nginx), and its
 * parent may be any shared folder (`/srv` for a store at `/srv/books`).
 */
export function operatorNoteFile(config: AppConfig): string | undefined {
  const { database } = config;
  if (database.dialect === 'postgres')
    return resolve('data', `operator-login.${postgresName(database.url)}.txt`);
  if (database.file === ':memory:') return undefined;
  const stem = basename(database.file).replace(/\.[^.]*$/, '');
  return join(
    dirname(database.file),
    stem === 'library' ? 'operator-login.txt' : `${stem}.operator-login.txt`,
  );
}

/**
 * `readlib@db-5432` for postgres://u:p@db/readlib: what tells two databases apart, in a file name's
 * characters. The host-less form node-postgres takes (postgres://u@/db?host=/run/postgresql) is named
 * by its socket folder; a URL the WHATWG parser refuses (DATABASE_URL's check admits a few) by a digest.
 */
function postgresName(url: string): string {
  const socketless = url.replace('@/', '@local-socket/');
  if (!URL.canParse(socketless)) return createHash('sha256').update(url).digest('hex').slice(0, 16);
  const { hostname, port, pathname, username, searchParams } = new URL(socketless);
  const host = searchParams.get('host') ?? (hostname || 'localhost');
  // as written, not decoded: a stray % in an accepted URL must not stop the start
  const name = pathname.slice(1) || username || 'postgres';
  return `${name}@${host}-${port || '5432'}`.replace(/[^A-Za-z0-9._@-]/g, '_');
}

function readNote(file: string): { user: string; password: string } | undefined {
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, 'utf8').trim();
  const space = line.lastIndexOf(' ');
  return { user: line.slice(0, space), password: line.slice(space + 1) };
}

/**
 * In development the first operator's password is generated; it is shown at every start from a file
 * (operatorNoteFile, mode 0600) so that a developer who missed the first start can still log in.
 * Production never gets here with a generated password (ensureFirstOperator refuses).
 */
export function rememberDevPassword(config: AppConfig, op: FirstOperatorResult): string {
  if (op.created && !op.generatedPassword) return `operator    ${op.username} (password from ADMIN_PASSWORD)`;
  const file = operatorNoteFile(config);
  if (op.generatedPassword && !file) {
    return `operator    username: ${op.username}   password: ${op.generatedPassword}   (generated for this run: the database is in memory)`;
  }
  if (op.generatedPassword && file) {
    mkdirSync(dirname(file), { recursive: true });
    // created anew, so it is 0600 from its first byte: an older note may have had any mode
    rmSync(file, { force: true });
    writeFileSync(file, `${op.username} ${op.generatedPassword}\n`, { mode: 0o600, flag: 'wx' });
  }
  const note = file ? readNote(file) : undefined;
  if (note) {
    return `operator    username: ${note.user}   password: ${note.password}   (generated; saved in ${file})`;
  }
  return 'operator    existing account (create another with: pnpm cli operator:create <username>)';
}

/**
 * Removes the note when it names `username`, whose password was just changed: every later start would
 * show a password that no longer works. Returns the file removed.
 */
export function forgetDevPassword(config: AppConfig, username: string): string | undefined {
  const file = operatorNoteFile(config);
  if (!file || readNote(file)?.user !== username) return undefined;
  rmSync(file, { force: true });
  return file;
}
