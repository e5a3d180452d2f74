import { createLogger, runMain, runServer } from '@tm/service-kit';
import { createApp } from './app.js';
import { loadTodosConfig } from './config.js';
import { openTodosStore } from './open-todos.store.js';

runMain('svc-todos', async () => {
  const config = loadTodosConfig();
  const logger = createLogger('svc-todos', config.LOG_LEVEL);
  // Never log MONGO_URL itself: it may carry credentials.
  logger.info({ store: config.MONGO_URL ? 'mongodb' : 'sqlite' }, 'opening store');
  const repository = await openTodosStore({ dataDir: config.DATA_DIR, mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB });
  const { app, drain } = createApp({ repository, logger, internalSecret: config.INTERNAL_SECRET });
  await runServer({ app, port: config.PORT, host: config.HOST, logger, close: () => repository.close(), onDrain: drain, drainMs: config.SHUTDOWN_DRAIN_MS });
});
