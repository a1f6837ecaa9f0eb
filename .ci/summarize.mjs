// Sums vitest's per-package "Tests" lines of a turbo run into the one closing line CI reads.
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const text = stripVTControlCharacters(readFileSync(process.argv[2], 'utf8'));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const line of text.split('\n')) {
  const m = /^\S+:test:\s+Tests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (!m) continue;
  for (const [, n, what] of m[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
    if (what === 'passed') passed += Number(n);
    else if (what === 'failed') failed += Number(n);
    else skipped += Number(n);
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
