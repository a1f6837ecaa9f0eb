// A process that stops as the services do (stopOnSignals), for stop-on-signals.test.ts:
// `node --import tsx stop-child.ts <closeMs> [fail]`. Its log is pino's, on stdout.
import pino from 'pino';
import { stopOnSignals } from '../src/stop-on-signals.js';

const log = pino();
const closeMs = Number(process.argv[2]);
const fails = process.argv[3] === 'fail';
let closes = 0;
stopOnSignals({
  log: () => log,
  close: async () => {
    closes += 1;
    log.info({ closes }, 'draining');
    await new Promise((resolve) => setTimeout(resolve, closeMs));
    if (fails) throw new Error('the pool would not close');
  },
});
log.info('ready');
setInterval(() => {}, 60_000);
