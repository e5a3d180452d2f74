import { createServiceApp, type Logger, type ServiceApp, type ServiceAppOptions } from '@tm/service-kit';
import type { PasswordHasher } from './password.hasher.js';
import type { UsersRepository } from './users.repository.js';
import { internalUsersRoutes, usersRoutes } from './users.routes.js';
import { UsersService } from './users.service.js';

export interface AppDeps {
  repository: UsersRepository;
  hasher: PasswordHasher;
  logger: Logger;
  /** Shared with the gateway; verifies the identity signature on every request. */
  internalSecret: string;
  /** For readiness: the SQLite data folder (`dataDir`), none with MongoDB (see StorageWatch). */
  storage?: ServiceAppOptions['storage'];
}

/** The svc-users Koa app (not listening): kit middleware in the kit's order, then the `/user` and `/internal/users` routes. */
export function createApp({ repository, hasher, logger, internalSecret, storage }: AppDeps): ServiceApp {
  const service = new UsersService({ repository, hasher, logger });
  return createServiceApp({
    name: 'svc-users',
    logger,
    internalSecret,
    ready: () => repository.ping(),
    storage,
    routes: [usersRoutes(service), internalUsersRoutes(service)],
  });
}
