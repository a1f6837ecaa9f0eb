import { parseArgs } from 'node:util';

export const USAGE = `usage: pnpm cli <command>
  migrate                                   apply database migrations and exit
  import <file|dir>... [--category <name>]  bulk-import EPUB files (folders are searched for *.epub
                                            regular files; links to files are followed, links to
                                            folders inside them are not); 100 books added or more:
                                            the search indexes are merged after
  optimize                                  merge the search indexes into one segment each (SQLite)
  backup <dest>                             consistent online snapshot of the SQLite database and store
  restore <src>                             put a backup in place (stop the services first)
  operator:create <username> [--nickname <name>]
                                            create an operator; the password is read from
                                            OPERATOR_PASSWORD, or generated and printed once
  operator:password <username>              set a new password (same source as above); tokens issued
                                            before are refused from then on
  help                                      this text
exit code: 0 done, 1 failed, 2 usage error (nothing was done)`;

/** A command line the CLI refuses before it opens anything: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

interface CommandSpec {
  /** what the command says when its argument is missing; absent: it takes none */
  missing?: string;
  /** true: one argument or more */
  many?: boolean;
  options?: Array<'category' | 'nickname'>;
}

const COMMANDS: Record<string, CommandSpec> = {
  migrate: {},
  optimize: {},
  import: { missing: 'name at least one file or folder', many: true, options: ['category'] },
  backup: { missing: 'name a destination folder' },
  restore: { missing: 'name the backup folder' },
  'operator:create': { missing: 'a username is required', options: ['nickname'] },
  'operator:password': { missing: 'a username is required' },
};

export interface Invocation {
  command: string;
  positionals: string[];
  values: { category?: string; nickname?: string };
}

/** The command and its arguments, checked against what it accepts (UsageError otherwise). */
export function parseCommandLine(argv: string[]): Invocation | 'help' {
  const [command, ...rest] = argv;
  // no command at all asks for the usage, as help does
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return 'help';
  // own keys only: "toString" is no command
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!spec) throw new UsageError(`unknown command: ${command}`);
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const name of spec.options ?? []) options[name] = { type: 'string' };
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args: rest, allowPositionals: true, options });
  } catch (err) {
    throw new UsageError(`${command}: ${(err as Error).message}`);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (spec.missing && positionals.length === 0) throw new UsageError(`${command}: ${spec.missing}`);
  const most = spec.many ? Infinity : spec.missing ? 1 : 0;
  if (positionals.length > most) throw new UsageError(`${command}: unexpected argument ${positionals[most]}`);
  return { command, positionals, values: values as { category?: string; nickname?: string } };
}
