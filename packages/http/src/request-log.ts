import { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactUrl } from './log-redaction.js';

/** A destination that can be flushed (pino.destination's SonicBoom), or any stream that cannot. */
export type LogDestination = DestinationStream & { flushSync?: () => void };

/**
 * Bytes the process destination gathers before it writes (one write per few dozen request lines under
 * load), and how long a quiet service may keep a partial buffer before it is written anyway.
 */
export const GATHER_BYTES = 4096;
const GATHER_MS = 1000;

let processDestination: LogDestination | undefined;

/**
 * The process's log destination: stdout, written asynchronously (a request never waits on the write),
 * gathered in buffers of GATHER_BYTES and written at least every GATHER_MS. One for the process: both
 * services of `pnpm start` write through it, so their lines never interleave within a line. pino flushes
 * it when the process exits; what a SIGKILL can lose is the buffer not yet written (at most GATHER_MS of
 * lines or GATHER_BYTES, whichever comes first) plus what the kernel holds for a pipe's reader.
 *
 * Lines are handed over as bytes (sonic-boom's buffer mode): in its text mode it measures the whole
 * pending text at every line, which costs more the more is pending, so most when the reader is slow.
 */
export function processLogDestination(): LogDestination {
  if (processDestination) return processDestination;
  const destination = gatheringDestination(1);
  setInterval(() => destination.flush(), GATHER_MS).unref();
  processDestination = destination;
  return destination;
}

/** Lines to `dest` (a file descriptor or path), written asynchronously once GATHER_BYTES are gathered. */
export function gatheringDestination(dest: number | string): LogDestination & { flush(): void } {
  const bytes = pino.destination({ dest, sync: false, minLength: GATHER_BYTES, contentMode: 'buffer' });
  return {
    write: (line: string) => bytes.write(Buffer.from(line) as unknown as string),
    flush: () => bytes.flush(),
    flushSync: () => bytes.flushSync(),
  };
}

/** Why the error handler refused a request, written on its one request line. */
const refusals = new WeakMap<FastifyRequest, { kind: string; reason: string }>();

export function noteRefusal(req: FastifyRequest, kind: string, reason: string): void {
  refusals.set(req, { kind, reason });
}

const { chindingsSym, streamSym, timeSym } = pino.symbols;

/** What pino keeps under its exported symbols, which the line below is made of. */
interface PinoParts {
  stream: DestinationStream;
  /** `,"time":…` as the logger's timestamp function writes it */
  time: string;
  /** `,"pid":…,"hostname":…,"reqId":…`: the logger's bindings, serialised once when it was made */
  bindings: string;
}

export function pinoParts(log: Logger): PinoParts {
  const internals = log as unknown as Record<symbol, unknown>;
  return {
    stream: internals[streamSym] as DestinationStream,
    time: (internals[timeSym] as () => string)(),
    bindings: internals[chindingsSym] as string,
  };
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
    };
    // an error here is the response's own (the client went away mid-body), not the handler's
    if (error) req.log.warn({ ...line, err: error }, 'request completed');
    else if (refused)
      req.log.info({ ...line, refused: refused.kind, reason: refused.reason }, 'request completed');
    else {
      const parts = pinoParts(log as Logger);
      parts.stream.write(completedLine(parts, line));
    }
  }

  /**
   * Fastify's own line for a download the client hung up on says `stream closed prematurely` with the
   * request id alone; that request's line is written by logClosedRequests instead. Any other failure of
   * a response already under way is a fault worth a warning, which names the request.
   */
  override streamError(error: Error & { code?: string }, req: FastifyRequest): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    req.log.warn(
      { method: req.method, url: redactUrl(req.url), err: error },
      'response failed after its headers were sent',
    );
  }
}

/**
 * The response went out whole (its `request completed` line is written): finished, or ended on a
 * connection still open (light-my-request's injected responses never report finished).
 */
function answered(reply: FastifyReply): boolean {
  const res = reply.raw;
  return res.writableFinished || (res.writableEnded && res.socket?.destroyed === false);
}

/** How far a request got before its connection closed. */
function closedStage(req: FastifyRequest, reply: FastifyReply): string {
  if (!req.raw.complete) return 'while receiving the request';
  return reply.raw.headersSent ? 'while sending the response' : 'before the response';
}

/**
 * A request whose connection closes before its response ends (the client hung up during an upload,
 * while the handler ran or during a download; or the shutdown deadline cut it) never finishes, so it
 * gets no `request completed` line: this is its one line, at info (clients hang up all the time), with
 * the request id, method and URL, the status only when it was sent, and how far the request got.
 */
export function logClosedRequests(app: FastifyInstance): void {
  app.addHook('onRequest', (req, reply, done) => {
    const log = req.log as Partial<Logger>;
    if (typeof log.isLevelEnabled === 'function' && log.isLevelEnabled('info')) {
      reply.raw.once('close', () => {
        if (answered(reply)) return;
        const refused = refusals.get(req);
        req.log.info(
          {
            method: req.method,
            url: redactUrl(req.url),
            ...(reply.raw.headersSent ? { status: reply.statusCode } : {}),
            ms: Math.round(reply.elapsedTime * 10) / 10,
            closed: closedStage(req, reply),
            ...(refused ? { refused: refused.kind, reason: refused.reason } : {}),
          },
          'connection closed before the response ended',
        );
      });
    }
    done();
  });
}

/**
 * The line pino writes for `log.info(fields, 'request completed')`, made directly: the time and the
 * logger's bindings (pid, hostname, reqId) are pino's own, 30 is pino's `info`; four known fields are all
 * there is to serialise, which pino's general path does at several times the cost (a test compares
 * the two lines).
 */
export function completedLine(
  parts: Pick<PinoParts, 'time' | 'bindings'>,
  f: { method: string; url: string; status: number; ms: number },
): string {
  return `{"level":30${parts.time}${parts.bindings},"method":${JSON.stringify(f.method)},"url":${JSON.stringify(f.url)},"status":${f.status},"ms":${JSON.stringify(f.ms)},"msg":"request completed"}\n`;
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
