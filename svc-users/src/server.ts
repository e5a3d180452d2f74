import { createLogger, runServer } from '@tm/service-kit';
import { createApp } from './app.js';
import { loadUsersConfig, type UsersConfig } from './config.js';
import { openUsersStore } from './open-users.store.js';
import { ScryptPasswordHasher } from './password.hasher.js';

function configOrExit(): UsersConfig {
  try {
    return loadUsersConfig();
  } catch (error) {
    process.stderr.write(`svc-users: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger('svc-users', config.LOG_LEVEL);
  const repository = await openUsersStore({ mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB, dataDir: config.DATA_DIR }).catch(
    (error: unknown) => {
      logger.fatal({ err: error }, 'cannot open the users store');
      process.exit(1);
    },
  );
  const { app, drain } = createApp({ repository, hasher: new ScryptPasswordHasher(), logger, internalSecret: config.INTERNAL_SECRET });
  await runServer({ app, port: config.PORT, host: config.HOST, logger, close: () => repository.close(), onDrain: drain });
}

main().catch((error: unknown) => {
  // The logger may not exist yet (or be the thing that failed): stderr always does.
  process.stderr.write(`svc-users: failed to start: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
