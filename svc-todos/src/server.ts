import { createLogger, runServer } from '@tm/service-kit';
import { createApp } from './app.js';
import { loadTodosConfig, type TodosConfig } from './config.js';
import { openTodosStore } from './open-todos.store.js';

function configOrExit(): TodosConfig {
  try {
    return loadTodosConfig();
  } catch (error) {
    process.stderr.write(`svc-todos: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger('svc-todos', config.LOG_LEVEL);
  // Never log MONGO_URL itself: it may carry credentials.
  logger.info({ store: config.MONGO_URL ? 'mongodb' : 'sqlite' }, 'opening store');
  const repository = await openTodosStore({
    dataDir: config.DATA_DIR,
    mongoUrl: config.MONGO_URL,
    mongoDb: config.MONGO_DB,
  }).catch((error: unknown) => {
    logger.fatal({ err: error }, 'could not open the todos store');
    process.exit(1);
  });
  const { app, drain } = createApp({ repository, logger, internalSecret: config.INTERNAL_SECRET });
  await runServer({
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    close: () => repository.close(),
    onDrain: drain,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`svc-todos: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
