import { createLogger, runMain, runServer } from '@tm/service-kit';
import { createApp } from './app.js';
import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { loadUsersConfig } from './config.js';
import { openUsersStore } from './open-users.store.js';

runMain('svc-users', async () => {
  const config = loadUsersConfig();
  const logger = createLogger('svc-users', config.LOG_LEVEL);
  // Never log MONGO_URL itself: it may carry credentials.
  logger.info({ store: config.MONGO_URL ? 'mongodb' : 'sqlite' }, 'opening store');
  const repository = await openUsersStore({ mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB, dataDir: config.DATA_DIR });
  const { app, drain } = createApp({
    repository,
    hasher: new Argon2idPasswordHasher(),
    logger,
    internalSecret: config.INTERNAL_SECRET,
    // Readiness watches the free space of the SQLite data folder; MongoDB's disk is the server's.
    storage: { dataDir: config.MONGO_URL ? undefined : config.DATA_DIR },
  });
  await runServer({ app, port: config.PORT, host: config.HOST, logger, close: () => repository.close(), onDrain: drain, drainMs: config.SHUTDOWN_DRAIN_MS });
});
