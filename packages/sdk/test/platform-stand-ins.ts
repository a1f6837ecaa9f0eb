import { createSign, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface StandIn {
  url: string;
  close(): Promise<void>;
}

/** A loopback HTTP server answering every request with one status, content type and body, `delayMs` late. */
export async function standIn(
  status: number,
  body: string,
  type = 'application/json',
  delayMs = 0,
): Promise<StandIn> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        res.writeHead(status, { 'content-type': type });
        res.end(body);
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The payment platform's side: its key pair signs the answer of alipay.system.oauth.token; the
 * service gets the app's private key (to sign) and the platform's public key (to verify) as PEM files.
 */
export function alipayAnswer(content: object) {
  const app = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const platform = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const dir = mkdtempSync(join(tmpdir(), 'readlib-sdk-keys-'));
  const appPrivate = join(dir, 'app-private.pem');
  const platformPublic = join(dir, 'platform-public.pem');
  writeFileSync(appPrivate, app.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(platformPublic, platform.publicKey.export({ type: 'spki', format: 'pem' }));
  const text = JSON.stringify(content);
  const sign = createSign('RSA-SHA256').update(text).sign(platform.privateKey, 'base64');
  return {
    dir,
    keysFor: (appId: string) => `${appId}=${appPrivate}:${platformPublic}`,
    body: `{"alipay_system_oauth_token_response":${text},"sign":"${sign}"}`,
  };
}
