import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { FirstOperatorResult } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';

/**
 * Beside the SQLite file the operator lives in (`./data/operator-login.txt` by default), or, on
 * PostgreSQL or an in-memory database, in `./data/` of the working directory. Never in or beside
 * STORAGE_DIR: the store is served under /res/ (and by nginx), and its parent may be any shared folder
 * (`/srv` for a store at `/srv/books`).
 */
export function operatorNoteFile(config: AppConfig): string {
  const { database } = config;
  const onFile = database.dialect === 'sqlite' && database.file !== ':memory:';
  return join(onFile ? dirname(database.file) : resolve('data'), 'operator-login.txt');
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
  const file = operatorNoteFile(config);
  if (op.generatedPassword) {
    mkdirSync(dirname(file), { recursive: true });
    // created anew, so it is 0600 from its first byte: an older note may have had any mode
    rmSync(file, { force: true });
    writeFileSync(file, `${op.username} ${op.generatedPassword}\n`, { mode: 0o600, flag: 'wx' });
  }
  if (op.created && !op.generatedPassword) return `operator    ${op.username} (password from ADMIN_PASSWORD)`;
  const note = readNote(file);
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
  if (readNote(file)?.user !== username) return undefined;
  rmSync(file, { force: true });
  return file;
}
