import { randomBytes } from 'node:crypto';
import type { AppConfig } from '@readlib/config';
import { type AdminUser, AppError, invalid, MaxLength } from '@readlib/contracts';
import {
  countOperators,
  type Database,
  findOperatorById,
  findOperatorByUsername,
  createOperator as insertOperator,
  type Operator,
  resetOperatorPassword,
  revokeOperatorTokens,
} from '@readlib/data';
import type { Kysely } from 'kysely';
import { toAdminUser } from './admin.mapper.js';
import { isUniqueViolation } from './ingest.errors.js';
import { dummyHash, hashPassword, verifyPassword } from './password.js';

export const MIN_PASSWORD_LENGTH = 8;

// counted as the login body's schema counts (code points), so every account made here can log in
const length = (s: string) => Array.from(s).length;

/** Refuses (invalid) a password the operator rules do not take: too short, only white space, too long. */
export function checkPasswordLength(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw invalid(`password must have at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (!password.trim()) throw invalid('password must not be only white space');
  if (length(password) > MaxLength.password)
    throw invalid(`password must have at most ${MaxLength.password} characters (the login form's limit)`);
}

export interface NewOperatorInput {
  username: string;
  password: string;
  nickname?: string;
  roles?: string[];
}

/**
 * A username as stored and looked up: NFC, so "josé" typed composed or decomposed is one operator, not
 * two that look alike (zero-width characters and line breaks are refused below).
 */
const usernameOf = (raw: string) => raw.normalize('NFC').trim();

/** Used by the first-operator bootstrap and by `pnpm cli operator:create`. */
export async function createOperator(db: Kysely<Database>, input: NewOperatorInput): Promise<Operator> {
  const username = usernameOf(input.username);
  if (!username) throw invalid('username is required');
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(username))
    throw invalid('username must not hold control, format (zero-width) or line-break characters');
  if (length(username) > MaxLength.username)
    throw invalid(`username must have at most ${MaxLength.username} characters (the login form's limit)`);
  checkPasswordLength(input.password);
  if (await findOperatorByUsername(db, username))
    throw new AppError('conflict', `operator ${username} exists`);
  return insertOperator(db, {
    username,
    password_hash: await hashPassword(input.password),
    nickname: input.nickname ?? username,
    avatar: '',
    roles: JSON.stringify(input.roles ?? ['admin']),
  });
}

/**
 * `pnpm cli operator:password`: sets a new password and refuses every token issued before it, so a
 * leaked password or token stops working at once, not when the token expires.
 */
export async function changeOperatorPassword(db: Kysely<Database>, username: string, password: string) {
  checkPasswordLength(password);
  if (!(await resetOperatorPassword(db, usernameOf(username), await hashPassword(password)))) {
    throw new AppError('not_found', `no operator ${username}`);
  }
}

/**
 * POST /user/logout: every token of the operator is refused from then on, in every process (the token
 * version moves, as a password change moves it). The token presented was valid a moment ago; a version
 * moved meanwhile (a logout in another tab) has refused it already, which is what was asked.
 */
export async function logOperatorOut(db: Kysely<Database>, id: number, version: number): Promise<void> {
  await revokeOperatorTokens(db, id, version);
}

export interface FirstOperatorResult {
  created: boolean;
  username?: string;
  /** set only when the password was generated here: the caller must show it once */
  generatedPassword?: string;
  /**
   * operators existed and ADMIN_USERNAME (or ADMIN_PASSWORD) does not describe one of them: the
   * variables were changed expecting the operator to change, which they never do; the caller warns
   */
  ignored?: 'no such operator' | 'another password';
}

/**
 * Creates the first operator when none exists: from ADMIN_USERNAME/ADMIN_PASSWORD, else (outside
 * production) `admin` with a random password that the caller prints. Never a fixed default password.
 */
export async function ensureFirstOperator(
  db: Kysely<Database>,
  config: AppConfig,
): Promise<FirstOperatorResult> {
  const configured = config.firstOperator;
  if ((await countOperators(db)) > 0) {
    const ignored = configured && (await ignoredFirstOperator(db, configured));
    return ignored ? { created: false, ignored } : { created: false };
  }
  if (configured?.password) {
    if (!(await createdFirst(db, { username: configured.username, password: configured.password })))
      return { created: false };
    return { created: true, username: configured.username };
  }
  if (config.env === 'production') {
    throw new Error(
      'no operator exists: set ADMIN_USERNAME and ADMIN_PASSWORD, or run `pnpm cli operator:create`',
    );
  }
  const username = configured?.username ?? 'admin';
  const generatedPassword = randomBytes(12).toString('base64url');
  if (!(await createdFirst(db, { username, password: generatedPassword }))) return { created: false };
  return { created: true, username, generatedPassword };
}

/** How ADMIN_USERNAME/ADMIN_PASSWORD differ from the operators there are, if they do. */
async function ignoredFirstOperator(
  db: Kysely<Database>,
  configured: { username: string; password?: string | undefined },
): Promise<FirstOperatorResult['ignored']> {
  const op = await findOperatorByUsername(db, usernameOf(configured.username));
  if (!op) return 'no such operator';
  if (configured.password !== undefined && !(await verifyPassword(configured.password, op.password_hash)))
    return 'another password';
  return undefined;
}

/**
 * createOperator for the first operator; false when another replica starting at the same moment made it
 * first (both counted none: the loser must not exit on the unique violation).
 */
async function createdFirst(db: Kysely<Database>, input: NewOperatorInput): Promise<boolean> {
  try {
    await createOperator(db, input);
    return true;
  } catch (err) {
    const taken = (err instanceof AppError && err.kind === 'conflict') || isUniqueViolation(err);
    if (taken && (await countOperators(db)) > 0) return false;
    throw err;
  }
}

/** The operator for these credentials, or a login refusal with one message for both mistakes. */
export async function authenticateOperator(
  db: Kysely<Database>,
  username: string,
  password: string,
): Promise<Operator> {
  const op = await findOperatorByUsername(db, usernameOf(username));
  // verify even for an unknown username so timing does not tell which of the two was wrong
  const ok = await verifyPassword(password, op?.password_hash ?? (await dummyHash()));
  if (!op || !ok) throw new AppError('login_refused', 'wrong username or password');
  return op;
}

export async function operatorProfile(db: Kysely<Database>, id: number): Promise<AdminUser> {
  const op = await findOperatorById(db, id);
  if (!op) throw new AppError('unauthorized', 'operator no longer exists');
  return toAdminUser(op);
}
