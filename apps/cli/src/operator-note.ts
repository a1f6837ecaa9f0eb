import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FirstOperatorResult } from '@readlib/catalog';
import type { AppConfig } from '@readlib/config';

/**
 * In development the first operator's password is generated; it is shown at every start from a file
 * beside the store (mode 0600) so that a developer who missed the first start can still log in.
 * Production never gets here with a generated password (ensureFirstOperator refuses).
 */
export function rememberDevPassword(config: AppConfig, op: FirstOperatorResult): string {
  const file = join(dirname(config.storageDir), 'operator-login.txt');
  if (op.generatedPassword) {
    writeFileSync(file, `${op.username} ${op.generatedPassword}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  if (op.created && !op.generatedPassword) return `operator    ${op.username} (password from ADMIN_PASSWORD)`;
  if (existsSync(file)) {
    const [user, password] = readFileSync(file, 'utf8').trim().split(' ');
    return `operator    username: ${user}   password: ${password}   (generated; saved in ${file})`;
  }
  return 'operator    existing account (create another with: pnpm cli operator:create <username>)';
}
