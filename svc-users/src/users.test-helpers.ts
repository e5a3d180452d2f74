import { createLogger, type Logger } from '@tm/service-kit';
import { listen, tempDir, TEST_SECRET } from '@tm/test-support';
import { createApp } from './app.js';
import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { SqliteUsersStore } from './sqlite-users.store.js';
import type { UsersRepository } from './users.repository.js';

/** A running svc-users for tests: real HTTP, a real SQLite file in a temp dir. */
export interface TestService {
  url: string;
  /** The folder of the service's SQLite file (`users.sqlite`). */
  dataDir: string;
  repository: UsersRepository;
  logger: Logger;
  stop: () => Promise<void>;
}

/**
 * Starts the service the way server.ts does, on an ephemeral port, with the production hasher: Argon2id at
 * OWASP's cost is ~15 ms a hash, cheap enough for every test.
 */
export async function startTestService(): Promise<TestService> {
  const { dir, remove } = tempDir('tm-svc-users-');
  const repository = SqliteUsersStore.open({ dataDir: dir });
  const logger = createLogger('svc-users', process.env.LOG_LEVEL);
  const { app } = createApp({ repository, hasher: new Argon2idPasswordHasher(), logger, internalSecret: TEST_SECRET });
  const server = await listen(app);
  return {
    url: server.url,
    dataDir: dir,
    repository,
    logger,
    stop: async () => {
      await server.close();
      await repository.close();
      remove();
    },
  };
}
