import { createLogger } from '@tm/service-kit';
import { listen, tempDir, TEST_SECRET } from '@tm/test-support';
import { createApp } from './app.js';
import { ScryptPasswordHasher, type PasswordHasher } from './password.hasher.js';
import { openSqliteUsersStore } from './sqlite-users.store.js';
import type { UsersRepository } from './users.repository.js';

/** A running svc-users for tests: real HTTP, a real SQLite file in a temp dir. */
export interface TestService {
  url: string;
  repository: UsersRepository;
  stop: () => Promise<void>;
}

/**
 * Starts the service the way server.ts does, on an ephemeral port. Tests about anything but the cost of
 * hashing pass a cheap hasher (logN 10) so the suite stays fast; the default is the production cost.
 */
export async function startTestService(hasher: PasswordHasher = new ScryptPasswordHasher()): Promise<TestService> {
  const { dir, remove } = tempDir('tm-svc-users-');
  const repository = openSqliteUsersStore(dir);
  const { app } = createApp({ repository, hasher, logger: createLogger('svc-users', process.env.LOG_LEVEL), internalSecret: TEST_SECRET });
  const server = await listen(app);
  return {
    url: server.url,
    repository,
    stop: async () => {
      await server.close();
      await repository.close();
      remove();
    },
  };
}

/** logN 10: about 1 ms per hash, for tests of behaviour rather than of cost. */
export const fastHasher = (): PasswordHasher => new ScryptPasswordHasher({ logN: 10 });
