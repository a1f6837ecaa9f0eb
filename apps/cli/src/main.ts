import { parseArgs } from 'node:util';
import { createOperator } from '@readlib/catalog';
import { collectEpubs, importAll } from './commands/import.command.js';
import { Progress } from './progress.js';
import { openRuntime } from './runtime.js';

const USAGE = `usage: pnpm cli <command>
  migrate                                   apply database migrations and exit
  import <file|dir>... [--category <name>]  bulk-import EPUB files (folders are searched for *.epub)
  operator:create <username> [--nickname <name>]
                                            create an operator; the password is read from
                                            OPERATOR_PASSWORD, or generated and printed once`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { category: { type: 'string' }, nickname: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (!command || values.help) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const rt = await openRuntime();
  try {
    switch (command) {
      case 'migrate':
        console.log('database schema is up to date');
        return 0;
      case 'import': {
        if (positionals.length === 0) throw new Error('import: name at least one file or folder');
        const sources = await collectEpubs(positionals);
        const started = Date.now();
        const s = await importAll(rt.ingest, sources, { category: values.category, progress: new Progress('import') });
        const secs = (Date.now() - started) / 1000;
        console.log(`imported ${sources.length} files in ${secs.toFixed(1)} s: ${s.added} added, ${s.duplicate} skipped as duplicate, ${s.failed.length} failed`);
        for (const f of s.failed) console.log(`  failed ${f.file}: ${f.reason}`);
        return s.failed.length ? 1 : 0;
      }
      case 'operator:create': {
        const username = positionals[0];
        if (!username) throw new Error('operator:create: a username is required');
        const given = process.env.OPERATOR_PASSWORD;
        const password = given ?? (await import('node:crypto')).randomBytes(12).toString('base64url');
        await createOperator(rt.handle.db, { username, password, nickname: values.nickname ?? username });
        console.log(given ? `operator ${username} created` : `operator ${username} created with password: ${password}`);
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    console.error(`error: ${err.message}`);
    process.exit(1);
  },
);
