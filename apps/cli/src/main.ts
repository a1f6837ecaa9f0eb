import { parseCommandLine, USAGE, UsageError } from './usage.js';

// Only the command line's own module is loaded up front: help and usage errors answer without loading
// the services, the database drivers or the catalogue, which the command's module brings in.
async function main(argv: string[]): Promise<number> {
  // the whole command line is checked before the database is opened (or created, or migrated)
  const line = parseCommandLine(argv);
  if (line === 'help') {
    console.log(USAGE);
    return 0;
  }
  const { runCommand } = await import('./run-command.js');
  return runCommand(line);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: Error) => {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\n${USAGE}`);
      process.exit(2);
    }
    console.error(`error: ${err.message}`);
    process.exit(1);
  },
);
