import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactUrl } from './log-redaction.js';

/** A destination that can be flushed (pino.destination's SonicBoom), or any stream that cannot. */
export type LogDestination = DestinationStream & { flushSync?: () => void };

/**
 * Bytes the process destination gathers before it writes (one write per few dozen request lines under
 * load), and how long a quiet service may keep a partial buffer before it is written anyway.
 */
const GATHER_BYTES = 4096;
const GATHER_MS = 1000;

let processDestination: LogDestination | undefined;

/**
 * The process's log destination: stdout, written asynchronously (a request never waits on the write),
 * gathered in buffers of GATHER_BYTES and written at least every GATHER_MS. One for the process: both
 * services of `pnpm start` write through it, so their lines never interleave within a line. pino flushes
 * it when the process exits; what a SIGKILL can lose is the buffer not yet written (at most GATHER_MS of
 * lines or GATHER_BYTES, whichever comes first) plus what the kernel holds for a pipe's reader.
 */
export function processLogDestination(): LogDestination {
  if (processDestination) return processDestination;
  const destination = pino.destination({ dest: 1, sync: false, minLength: GATHER_BYTES });
  setInterval(() => destination.flush(), GATHER_MS).unref();
  processDestination = destination;
  return destination;
}

/** Why the error handler refused a request, written on its one request line. */
const refusals = new WeakMap<FastifyRequest, { kind: string; reason: string }>();

export function noteRefusal(req: FastifyRequest, kind: string, reason: string): void {
  refusals.set(req, { kind, reason });
}

/**
 * One line per request, once its response is sent: method, URL with credential values redacted,
 * status, milliseconds and (bound by the request's logger) the request id; a refused request's line
 * also says why. It replaces Fastify's two lines per request (incoming, completed), whose request and
 * response objects cost a serialisation each.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    const log = req.log as Partial<Logger>;
    // a service built with `logger: false` has Fastify's silent stand-in, which has no levels to ask
    if (typeof log.isLevelEnabled !== 'function' || !log.isLevelEnabled('info')) return;
    const refused = refusals.get(req);
    const line = {
      method: req.method,
      url: redactUrl(req.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...(refused ? { refused: refused.kind, reason: refused.reason } : {}),
    };
    // an error here is the response's own (the client went away mid-body), not the handler's
    if (error) req.log.warn({ ...line, err: error }, 'request completed');
    else req.log.info(line, 'request completed');
  }
}

/** The lines of the last requests reach the destination before the service reports itself closed. */
export function flushLogOnClose(app: FastifyInstance, destination: LogDestination | undefined): void {
  app.addHook('onClose', (_app, done) => {
    flushLog(destination);
    done();
  });
}

/** Writes what the destination holds, now; a destination not yet open (or not flushable) is left. */
export function flushLog(destination: LogDestination | undefined): void {
  try {
    destination?.flushSync?.();
  } catch {
    // not open yet or already closed: nothing of ours is buffered in it
  }
}
