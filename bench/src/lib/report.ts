import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function machine(): string {
  return `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

const RESULTS = fileURLToPath(new URL('../../.data/results/', import.meta.url));

/** Keeps each run's figures as JSON under bench/.data/results/ (git-ignored) and prints them. */
export function writeResult(name: string, data: Record<string, unknown>): void {
  mkdirSync(RESULTS, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const body = JSON.stringify({ benchmark: name, date: new Date().toISOString(), ...data }, null, 2);
  writeFileSync(join(RESULTS, `${name}-${stamp}.json`), body);
  console.log(body);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
