import type { AppConfig } from '@readlib/config';
import { type App, assertCanListen, listenOn } from '@readlib/http';
import { buildApp, type ReaderDeps } from './app.js';

export { buildApp, type ReaderDeps } from './app.js';
export { WARM_UP_MAX_MS } from './warm-up.plugin.js';

/**
 * Builds the app, warms its memos (warm-up.plugin.ts) and listens on HOST:READER_PORT; the caller closes
 * the app, then its database. A HOST or port it cannot listen on is refused before the warm-up.
 */
export async function startReaderServer(config: AppConfig, deps: ReaderDeps): Promise<App> {
  await assertCanListen(config.host, config.readerPort, 'READER_PORT');
  const app = await buildApp(config, { warm: true, ...deps });
  await listenOn(app, config.host, config.readerPort, 'READER_PORT');
  return app;
}
