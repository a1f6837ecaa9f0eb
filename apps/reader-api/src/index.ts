import type { AppConfig } from '@readlib/config';
import { type App, listenOn } from '@readlib/http';
import { buildApp, type ReaderDeps } from './app.js';

export { buildApp, type ReaderDeps } from './app.js';
export { WARM_UP_MAX_MS } from './warm-up.plugin.js';

/**
 * Builds the app, warms its memos (warm-up.plugin.ts) and listens on HOST:READER_PORT; the caller closes
 * the app, then its database.
 */
export async function startReaderServer(config: AppConfig, deps: ReaderDeps): Promise<App> {
  const app = await buildApp(config, { warm: true, ...deps });
  await listenOn(app, config.host, config.readerPort, 'READER_PORT');
  return app;
}
