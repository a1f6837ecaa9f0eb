import { parseArgs } from 'node:util';
import { changeOperatorPassword, createOperator } from '@readlib/catalog';
import { loadConfig } from '@readlib/config';
import { backupSqlite, restoreSqlite } from './commands/backup.command.js';
import { collectEpubs, importAll } from './commands/import.command.js';
import { Progress } from './progress.js';
import { openRuntime } from './runtime.js';

const USAGE = `usage: pnpm cli <command>
  migrate                                   apply database migrations and exit
  import <file|dir>... [--category <name>]  bulk-import EPUB files (folders are searched for *.epub)
  backup <dest>                             consistent online snapshot of the SQLite database and store
  restore <src>                             put a backup in place (stop the services first)
  operator:create <username> [--nickname <name>]
                                            create an operator; the password is read from
                                            OPERATOR_PASSWORD, or generated and printed once
  operator:password <username>              set a new password (same source as above); tokens issued
                                            before are refused from then on`;

/** OPERATOR_PASSWORD, or a generated one the command prints (given: false). */
async function operatorPassword(): Promise<{ password: string; given: boolean }> {
  const given = process.env.OPERATOR_PASSWORD;
  if (given !== undefined) return { password: given, given: true };
  return { password: (await import('node:crypto')).randomBytes(12).toString('base64url'), given: false };
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      category: { type: 'string' },
      nickname: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (!command || values.help) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  if (command === 'restore') return restore(positionals[0]);
  const rt = await openRuntime();
  try {
    switch (command) {
      case 'backup': {
        if (!positionals[0]) throw new Error('backup: name a destination folder');
        if (rt.config.database.dialect !== 'sqlite')
          throw new Error('backup: for PostgreSQL use pg_dump (see DEPLOYMENT.md)');
        const m = await backupSqlite(rt.handle.db, rt.config.storageDir, positionals[0]);
        console.log(
          `backup in ${positionals[0]}: ${m.books} books, ${m.uploads} pending uploads, ${m.files} files, ${(m.bytes / 2 ** 20).toFixed(1)} MiB${m.missing.length ? `; files missing for ${m.missing.join(', ')}` : ''}`,
        );
        return 0;
      }
      case 'migrate':
        for (const name of rt.migrated) console.log(`applied ${name}`);
        console.log(rt.migrated.length ? 'database schema migrated' : 'database schema is up to date');
        return 0;
      case 'import': {
        if (positionals.length === 0) throw new Error('import: name at least one file or folder');
        const sources = await collectEpubs(positionals);
        const started = Date.now();
        const s = await importAll(rt.ingest, sources, {
          category: values.category,
          progress: new Progress('import'),
        });
        const secs = (Date.now() - started) / 1000;
        console.log(
          `imported ${sources.length} files in ${secs.toFixed(1)} s: ${s.added} added, ${s.duplicate} skipped as duplicate, ${s.failed.length} failed`,
        );
        for (const f of s.failed) console.log(`  failed ${f.file}: ${f.reason}`);
        return s.failed.length ? 1 : 0;
      }
      case 'operator:create': {
        const username = positionals[0];
        if (!username) throw new Error('operator:create: a username is required');
        const { password, given } = await operatorPassword();
        await createOperator(rt.handle.db, { username, password, nickname: values.nickname ?? username });
        console.log(
          given ? `operator ${username} created` : `operator ${username} created with password: ${password}`,
        );
        return 0;
      }
      case 'operator:password': {
        const username = positionals[0];
        if (!username) throw new Error('operator:password: a username is required');
        const { password, given } = await operatorPassword();
        await changeOperatorPassword(rt.handle.db, username, password);
        console.log(
          `password of ${username} changed${given ? '' : ` to: ${password}`}; tokens issued before are refused`,
        );
        return 0;
      }
      default:
        console.error(`unknown command: ${command}\n${USAGE}`);
        return 2;
    }
  } finally {
    await rt.handle.destroy();
  }
}

async function restore(src: string | undefined): Promise<number> {
  if (!src) throw new Error('restore: name the backup folder');
  const config = loadConfig();
  if (config.database.dialect !== 'sqlite')
    throw new Error('restore: for PostgreSQL use pg_restore (see DEPLOYMENT.md)');
  const aside = await restoreSqlite(src, config.database.file, config.storageDir);
  // a backup taken before an upgrade gets this version's migrations
  const rt = await openRuntime();
  await rt.handle.destroy();
  console.log(`restored from ${src}; the previous database and store were kept with the suffix .${aside}`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`error: ${err.message}`);
    process.exit(1);
  },
);
