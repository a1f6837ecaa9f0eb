import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOT_PACKAGE = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

// Ctrl-C on `pnpm start` reaches the whole foreground group: the services stop cleanly and exit 0
// (stop-on-signals.test.ts), but a shell left between pnpm and node dies of the SIGINT, and pnpm then
// prints "ELIFECYCLE Command failed." and exits 130 after every clean stop. `exec` makes node the
// script's process, so pnpm sees node's own exit code. (The build before it cannot be started here:
// a second turbo inside the test run would rewrite the dist folders other suites are reading.)
describe('the root start script', () => {
  it('runs the built start with exec, so a Ctrl-C that stops the services cleanly exits 0', () => {
    expect(ROOT_PACKAGE.scripts.start).toMatch(/&& exec node apps\/cli\/dist\/start\.js$/);
  });
});
