import { createLogger, runMain, runServer } from '@tm/service-kit';
import { createApp } from './app.js';
import { readGatewayConfig } from './config.js';
import { openSessionStore } from './open-session.store.js';

runMain('gateway', async () => {
  const config = readGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);
  const { store, redis } = await openSessionStore({ redisUrl: config.redisUrl, dataDir: config.dataDir, logger });
  const gateway = createApp({ config, sessionStore: store, logger, redis, web: config.web });
  await runServer({
    app: gateway.app,
    port: config.port,
    host: config.host,
    logger,
    onDrain: gateway.drain,
    drainMs: config.shutdownDrainMs,
    close: async () => {
      gateway.close();
      await store.close();
    },
  });
});
