import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  changeOperatorPassword,
  checkPasswordLength,
  createOperator,
  resolveCategory,
} from '@readlib/catalog';
import { type AppConfig, describeDatabase, loadConfig } from '@readlib/config';
import { backupSqlite, restoreSqlite } from './commands/backup.command.js';
import { collectEpubs, importAll } from './commands/import.command.js';
import { mergeSearchIndexes, OPTIMIZE_AFTER_ADDED } from './commands/optimize.command.js';
import { forgetDevPassword } from './operator-note.js';
import { Progress } from './progress.js';
import { type DatabaseRuntime, openDatabase, openRuntime, type Runtime } from './runtime.js';
import { type Invocation, UsageError } from './usage.js';

/**
 * OPERATOR_PASSWORD, or a generated one the command prints (given: false). A given one the operator
 * rules refuse is reported naming the variable, since nothing on the command line held a password.
 */
async function operatorPassword(): Promise<{ password: string; given: boolean }> {
  const given = process.env.OPERATOR_PASSWORD;
  if (given !== undefined) {
    try {
      checkPasswordLength(given);
    } catch (err) {
      throw new Error(`OPERATOR_PASSWORD: ${(err as Error).message}`, { cause: err });
    }
    return { password: given, given: true };
  }
  return { password: (await import('node:crypto')).randomBytes(12).toString('base64url'), given: false };
}

// the commands that read or write the store; the others need neither STORAGE_DIR nor its being writable
const STORE_COMMANDS = new Set(['import', 'backup', 'restore']);

/** The command's work: loaded only once the command line is known to be valid, so help costs nothing. */
export async function runCommand(line: Invocation): Promise<number> {
  try {
    const config = loadConfig();
    announceDatabase(config);
    if (line.command === 'restore') return await restore(config, line.positionals[0]!);
    return await run(config, line);
  } catch (err) {
    throw naming(line.command, err);
  }
}

/**
 * On stderr, before anything is done: which database the command works on. Without the production
 * environment loaded, a command ran on the SQLite default of the working directory, and said nothing.
 */
function announceDatabase(config: AppConfig): void {
  const defaulted =
    !process.env.DATABASE_URL &&
    config.database.dialect === 'sqlite' &&
    config.database.file === resolve('data/library.db');
  console.error(
    `database: ${describeDatabase(config.database)}${defaulted ? ' (the default: DATABASE_URL is not set)' : ''}`,
  );
}

/** `error: operator:create: cannot reach the database at ...`: which command failed, said once. */
function naming(command: string, err: unknown): unknown {
  if (err instanceof UsageError || !(err instanceof Error)) return err;
  if (err.message.startsWith(`${command}: `)) return err;
  return new Error(`${command}: ${err.message}`, { cause: err });
}

async function run(config: AppConfig, { command, positionals, values }: Invocation): Promise<number> {
  const [first] = positionals as [string, ...string[]];
  if (command === 'backup') backupPreflight(config);
  const opts = { migrate: command === 'migrate' };
  const rt = STORE_COMMANDS.has(command) ? await openRuntime(config, opts) : await openDatabase(config, opts);
  try {
    switch (command) {
      case 'backup': {
        const m = await backupSqlite(rt.handle.db, config.storageDir, first);
        console.log(
          `backup in ${first}: ${m.books} books, ${m.uploads} pending uploads, ${m.files} files, ${(m.bytes / 2 ** 20).toFixed(1)} MiB${m.missing.length ? `; files missing for ${m.missing.join(', ')}` : ''}`,
        );
        return 0;
      }
      case 'migrate':
        for (const name of rt.migrated) console.log(`applied ${name}`);
        console.log(rt.migrated.length ? 'database schema migrated' : 'database schema is up to date');
        return 0;
      case 'import': {
        // a store command: openRuntime opened it
        const { ingest } = rt as Runtime;
        const category =
          values.category === undefined ? undefined : await importCategory(rt, values.category);
        const sources = await collectEpubs(positionals);
        const started = Date.now();
        const s = await importAll(ingest, sources, {
          category,
          progress: new Progress('import'),
        });
        const secs = (Date.now() - started) / 1000;
        console.log(
          `imported ${sources.length} files in ${secs.toFixed(1)} s: ${s.added} added, ${s.duplicate} skipped as duplicate, ${s.failed.length} failed`,
        );
        const why = {
          'same-file': 'the same file',
          'same-title-author-publisher': 'the same title, author and publisher',
        };
        for (const d of s.skipped) console.log(`  skipped ${d.file}: ${why[d.why]} as ${d.of}`);
        for (const f of s.failed) console.log(`  failed ${f.file}: ${f.reason}`);
        if (s.added >= OPTIMIZE_AFTER_ADDED) console.log(await mergeSearchIndexes(rt.handle.db));
        return s.failed.length ? 1 : 0;
      }
      case 'optimize':
        console.log(await mergeSearchIndexes(rt.handle.db));
        return 0;
      case 'operator:create': {
        const { password, given } = await operatorPassword();
        await createOperator(rt.handle.db, { username: first, password, nickname: values.nickname ?? first });
        console.log(
          given ? `operator ${first} created` : `operator ${first} created with password: ${password}`,
        );
        return 0;
      }
      case 'operator:password': {
        const { password, given } = await operatorPassword();
        await changeOperatorPassword(rt.handle.db, first, password);
        console.log(
          `password of ${first} changed${given ? '' : ` to: ${password}`}; tokens issued before are refused`,
        );
        const note = forgetDevPassword(rt.config, first);
        if (note) console.log(`removed ${note}, which held the previous password`);
        return 0;
      }
      default:
        throw new Error(`${command}: no handler`); // parseCommandLine knows every command
    }
  } finally {
    await rt.handle.destroy();
  }
}

/**
 * `--category` resolved once, before any book: an id of a category, else a name (found or created).
 * Checked per book, a bad value would fail every book alike. A blank value (`""` included) is a usage
 * error; a number that is no category's id is taken as a name ("2024").
 */
async function importCategory(rt: DatabaseRuntime, given: string): Promise<string> {
  const value = given.trim();
  if (!value) throw new UsageError('--category needs the name or id of a category');
  const db = rt.handle.db;
  const id = /^\d+$/.test(value)
    ? await resolveCategory(db, { category: value }).catch(() => undefined)
    : undefined;
  return String(id ?? (await resolveCategory(db, { categoryText: value })));
}

/**
 * Before anything is opened: opening a SQLite file that is not there creates it, so a mistyped
 * DATABASE_URL would be backed up as an empty catalogue, "0 books", exit 0.
 */
function backupPreflight({ database }: AppConfig): void {
  if (database.dialect !== 'sqlite')
    throw new Error('backup: for PostgreSQL use pg_dump (see docs/deployment.md)');
  if (!existsSync(database.file))
    throw new Error(`backup: there is no database at ${database.file} (check DATABASE_URL)`);
}

async function restore(config: AppConfig, src: string): Promise<number> {
  if (config.database.dialect !== 'sqlite')
    throw new Error('restore: for PostgreSQL use pg_restore (see docs/deployment.md)');
  const kept = await restoreSqlite(src, config.database.file, config.storageDir);
  // a backup taken before an upgrade gets this version's migrations
  const rt = await openRuntime(config, { migrate: true });
  await rt.handle.destroy();
  // where the previous data went, when there was any
  const where = [
    ...(kept.database ? [`the previous database was kept as ${kept.database}`] : []),
    ...(kept.store ? [`the previous store's files in ${kept.store}`] : []),
  ];
  console.log(`restored from ${src}${where.length ? `; ${where.join(', ')}` : ''}`);
  return 0;
}
