import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FirstOperatorResult } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';

const noteFile = (config: AppConfig) => join(dirname(config.storageDir), 'operator-login.txt');

function readNote(file: string): { user: string; password: string } | undefined {
  if (!existsSync(file)) return undefined;
  const line = readFileSync(file, 'utf8').trim();
  const space = line.lastIndexOf(' ');
  return { user: line.slice(0, space), password: line.slice(space + 1) };
}

/**
 * In development the first operator's password is generated; it is shown at every start from a file
 * beside the store (mode 0600) so that a developer who missed the first start can still log in.
 * Production never gets here with a generated password (ensureFirstOperator refuses).
 */
export function rememberDevPassword(config: AppConfig, op: FirstOperatorResult): string {
  const file = noteFile(config);
  if (op.generatedPassword) {
    writeFileSync(file, `${op.username} ${op.generatedPassword}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
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
  const file = noteFile(config);
  if (readNote(file)?.user !== username) return undefined;
  rmSync(file, { force: true });
  return file;
}
