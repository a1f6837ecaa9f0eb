import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./stop-child.ts', import.meta.url));

type Line = { level: number; msg: string; [field: string]: unknown };

/** Runs stop-child.ts, sends it `signals` once it is ready (the later ones while it drains), and waits for its exit. */
async function stopChild(
  args: string[],
  signals: NodeJS.Signals[],
): Promise<{ code: number | null; lines: Line[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    cwd: fileURLToPath(new URL('.', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const lines = () =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);
  child.stdout.on('data', (chunk) => {
    out += chunk;
    if (lines().some((l) => l.msg === 'ready') && signals.length > 0) child.kill(signals.shift());
    if (lines().some((l) => l.msg === 'draining') && signals.length > 0) child.kill(signals.shift());
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, lines: lines() };
}

describe('stopOnSignals: the last line of a stop says how it ended', () => {
  it('SIGTERM: closing, then closed with the signal and how long the drain took; exit 0', async () => {
    const { code, lines } = await stopChild(['300'], ['SIGTERM']);
    expect(code).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(['ready', 'closing', 'draining', 'closed']);
    expect(lines[1]).toMatchObject({ level: 30, signal: 'SIGTERM' });
    expect(lines[3]).toMatchObject({ level: 30, signal: 'SIGTERM' });
    expect(lines[3]!.ms).toBeGreaterThanOrEqual(300);
  });

  it('a second signal while draining neither closes twice nor cuts the drain short', async () => {
    const { code, lines } = await stopChild(['300'], ['SIGINT', 'SIGTERM']);
    expect(code).toBe(0);
    expect(lines.filter((l) => l.msg === 'draining')).toEqual([expect.objectContaining({ closes: 1 })]);
    expect(lines.at(-1)).toMatchObject({ msg: 'closed', signal: 'SIGINT' });
  });

  it('a close that fails ends with close failed at error, naming the cause; exit 1', async () => {
    const { code, lines } = await stopChild(['50', 'fail'], ['SIGTERM']);
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatchObject({
      level: 50,
      signal: 'SIGTERM',
      msg: 'close failed',
      err: expect.objectContaining({ message: 'the pool would not close' }),
    });
    expect(lines.some((l) => l.msg === 'closed')).toBe(false);
  });
});
