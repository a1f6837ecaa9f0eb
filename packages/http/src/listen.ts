import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * What a refused listen means to whoever set HOST and the service's port variable: Node's message
 * (`listen EADDRINUSE: address already in use 127.0.0.1:3000`, `getaddrinfo ENOTFOUND x`) names
 * neither the variable nor the way out. Undefined for an error it has nothing to add to.
 */
export function listenAdvice(
  err: unknown,
  host: string,
  port: number,
  portVariable: string,
): string | undefined {
  switch ((err as { code?: unknown } | undefined)?.code) {
    case 'EADDRINUSE':
      return `another process listens on port ${port}: stop it, or choose another port with ${portVariable}`;
    case 'EACCES':
      return `port ${port} needs privileges this user lacks: choose a port above 1023 with ${portVariable} (a proxy in front listens on 80 or 443)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `HOST ${JSON.stringify(host)} is not a name this machine resolves: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for every interface)`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine: set HOST to one of its addresses (127.0.0.1, or 0.0.0.0 for every interface)`;
    default:
      return undefined;
  }
}

/** The refusal of a listen, with the setting to change when listenAdvice knows it. */
function refusal(err: unknown, host: string, port: number, portVariable: string): unknown {
  const advice = listenAdvice(err, host, port, portVariable);
  return advice ? new Error(`${(err as Error).message}: ${advice}`, { cause: err }) : err;
}

/** `app.listen` whose refusal says which setting to change (listenAdvice); resolves with the address. */
export async function listenOn(
  app: FastifyInstance,
  host: string,
  port: number,
  portVariable: string,
): Promise<string> {
  try {
    return await app.listen({ host, port });
  } catch (err) {
    throw refusal(err, host, port, portVariable);
  }
}

/**
 * Binds HOST and the port for a moment, then lets them go, so that a start refuses a HOST that does not
 * resolve or is not this machine's, or a port another process holds, before its slow part (the
 * reader's warm-up, seconds at a million books) rather than after it. Nothing is served meanwhile: a
 * connection that arrives in that moment is reset, and a client or proxy tries again. The real listen
 * may still be refused (the port taken in between); listenOn then says so in the same words.
 */
export async function assertCanListen(host: string, port: number, portVariable: string): Promise<void> {
  const probe = createServer((socket) => socket.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port }, resolve);
    });
  } catch (err) {
    throw refusal(err, host, port, portVariable);
  }
  await new Promise((resolve) => probe.close(resolve));
}
