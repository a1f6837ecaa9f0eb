import { createSign, createVerify, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StandIn {
  url: string;
  requests: Array<{ url: URL; body: string }>;
  /** what the next requests get; default answers the happy path */
  handle: (req: { url: URL; body: string }, res: ServerResponse) => void;
  close(): Promise<void>;
}

/** A local HTTP server standing in for a login platform (decisions.md §3: tests run over real HTTP). */
export async function standIn(handle: StandIn['handle']): Promise<StandIn> {
  const state = { handle };
  const requests: StandIn['requests'] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const entry = { url: new URL(req.url ?? '/', 'http://stand.in'), body };
      requests.push(entry);
      state.handle(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get handle() {
      return state.handle;
    },
    set handle(h) {
      state.handle = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: string | object) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Two RSA key pairs as Alipay has them: the app's (we sign) and Alipay's (we verify), in PEM files. */
export function alipayKeys() {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const alipay = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dir = mkdtempSync(join(tmpdir(), 'readlib-keys-'));
  const appPrivate = join(dir, 'app-private.pem');
  const alipayPublic = join(dir, 'alipay-public.pem');
  writeFileSync(appPrivate, app.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(alipayPublic, alipay.publicKey.export({ type: 'spki', format: 'pem' }));
  return { dir, appPrivate, alipayPublic, appPublic: app.publicKey, alipayPrivate: alipay.privateKey };
}

/** Checks the request's RSA2 signature over the sorted parameters, as the gateway does. */
export function requestSignatureValid(params: URLSearchParams, appPublic: KeyObject): boolean {
  const entries = [...params.entries()].filter(([k, v]) => k !== 'sign' && v !== '');
  const content = entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return createVerify('RSA-SHA256')
    .update(content)
    .verify(appPublic, params.get('sign') ?? '', 'base64');
}

/** An Alipay answer: the node's JSON text signed with Alipay's key, spliced in verbatim. */
export function signedAnswer(
  node: string,
  content: object,
  alipayPrivate: KeyObject,
  tamper = false,
): string {
  const text = JSON.stringify(content);
  const sign = createSign('RSA-SHA256')
    .update(tamper ? `${text} ` : text)
    .sign(alipayPrivate, 'base64');
  return `{"${node}":${text},"sign":"${sign}"}`;
}
