import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { basename } from 'node:path';

/** An HTTP answer as a mini-program's network layer hands it to the platform API. */
export interface HttpAnswer {
  status: number;
  /** names as the device's HTTP stack gives them (see `HeaderCase`), repeated ones joined */
  headers: Record<string, string>;
  body: string;
}

export type HttpFailure = { reason: 'timeout' | 'abort' | 'network'; message: string };

/** How a device's HTTP stack spells response header names: as the server sent them, or re-cased. */
export type HeaderCase = 'as-sent' | 'title' | 'upper';

const recase = (name: string, style: HeaderCase) =>
  style === 'upper'
    ? name.toUpperCase()
    : style === 'title'
      ? name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
      : name;

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  headerCase: HeaderCase;
  /** called as the body goes out (a Buffer body, sent in chunks), with the bytes sent and the total */
  onSent?: (sent: number, total: number) => void;
}

/** A chunk of a body sent piece by piece: a fixture of 50 KB makes a few progress events. */
const CHUNK_BYTES = 16 * 1024;

/**
 * One exchange over real HTTP (node:http), settled once: an answer, or a failure when the timeout
 * fires, the task is aborted, or the connection fails. What both platforms' stand-ins send through.
 */
export function platformHttp(
  req: HttpRequest,
  onAnswer: (answer: HttpAnswer) => void,
  onFailure: (failure: HttpFailure) => void,
): { abort(): void } {
  let settled = false;
  const finish = (done: () => void) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    done();
  };
  const outgoing = request(req.url, { method: req.method, headers: req.headers }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', (err) => finish(() => onFailure({ reason: 'network', message: err.message })));
    res.on('end', () => {
      const headers: Record<string, string> = {};
      for (let i = 0; i < res.rawHeaders.length; i += 2) {
        const name = recase(res.rawHeaders[i]!, req.headerCase);
        headers[name] =
          headers[name] === undefined ? res.rawHeaders[i + 1]! : `${headers[name]}, ${res.rawHeaders[i + 1]}`;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      finish(() => onAnswer({ status: res.statusCode ?? 0, headers, body }));
    });
  });
  const timer = setTimeout(() => {
    finish(() => onFailure({ reason: 'timeout', message: 'timeout' }));
    outgoing.destroy();
  }, req.timeoutMs);
  outgoing.on('error', (err) => finish(() => onFailure({ reason: 'network', message: err.message })));
  const { body, onSent } = req;
  if (!onSent || !Buffer.isBuffer(body)) {
    outgoing.end(body);
  } else {
    // each chunk is counted once the socket took it, as a device's HTTP stack counts sent bytes
    let sent = 0;
    const next = () => {
      const chunk = body.subarray(sent, sent + CHUNK_BYTES);
      outgoing.write(chunk, (err) => {
        if (err || settled) return;
        sent += chunk.length;
        onSent(sent, body.length);
        if (sent < body.length) next();
        else outgoing.end();
      });
    };
    next();
  }
  return {
    abort() {
      finish(() => onFailure({ reason: 'abort', message: 'abort' }));
      outgoing.destroy();
    },
  };
}

/**
 * An upload as the platforms send it: the local file read from `filePath`, posted as multipart field
 * `field` with the part named after the path. A missing file fails as `network`; an abort before the
 * file is read still fails as `abort`.
 */
export function uploadHttp(
  filePath: string,
  field: string,
  req: Omit<HttpRequest, 'method' | 'body'>,
  onAnswer: (answer: HttpAnswer) => void,
  onFailure: (failure: HttpFailure) => void,
): { abort(): void } {
  let call: { abort(): void } | undefined;
  let aborted = false;
  readFile(filePath).then(
    async (bytes) => {
      if (aborted) return;
      const form = new FormData();
      form.append(field, new Blob([bytes]), basename(filePath));
      const encoded = new Response(form);
      const body = Buffer.from(await encoded.arrayBuffer());
      const headers = {
        ...req.headers,
        'content-type': encoded.headers.get('content-type')!,
        'content-length': String(body.length),
      };
      call = platformHttp({ ...req, method: 'POST', headers, body }, onAnswer, onFailure);
    },
    () => onFailure({ reason: 'network', message: `file not found: ${filePath}` }),
  );
  return {
    abort() {
      if (call) return call.abort();
      if (aborted) return;
      aborted = true;
      onFailure({ reason: 'abort', message: 'abort' });
    },
  };
}

/** Request headers as both platforms send them: `content-type` defaults to `application/json`. */
export function platformHeaders(given: Record<string, string> | undefined): Record<string, string> {
  const named = Object.keys(given ?? {}).some((key) => key.toLowerCase() === 'content-type');
  return named ? { ...given } : { ...given, 'content-type': 'application/json' };
}

/** The task a platform call returns: `abort()` cancels the exchange, counted in `seen.aborted`. */
export const taskOf = (call: { abort(): void }, seen: { aborted: number }) => ({
  abort() {
    seen.aborted++;
    call.abort();
  },
});

/**
 * The progress side of an upload task: `onProgressUpdate` listeners (counted in `seen.progressListeners`)
 * told of each chunk sent, in the platform's words (`eventOf`); `onSent` goes to `uploadHttp`.
 */
export function progressEvents<E>(
  seen: { progressListeners: number },
  eventOf: (sent: number, total: number) => E,
) {
  const listeners: Array<(event: E) => void> = [];
  return {
    onSent(sent: number, total: number) {
      for (const listener of listeners) listener(eventOf(sent, total));
    },
    onProgressUpdate(listener: (event: E) => void) {
      seen.progressListeners++;
      listeners.push(listener);
    },
  };
}
