import { createServiceApp, type Logger, type ServiceApp, type ServiceAppOptions } from '@tm/service-kit';
import { calendarFeedRoutes, internalCalendarFeedRoutes } from './calendar-feed.routes.js';
import type { Mailer } from './mailer.js';
import type { PasswordHasher } from './password.hasher.js';
import type { UsersRepository } from './users.repository.js';
import { internalPasswordResetRoutes, internalUsersRoutes, usersRoutes } from './users.routes.js';
import { UsersService } from './users.service.js';

export interface AppDeps {
  repository: UsersRepository;
  hasher: PasswordHasher;
  logger: Logger;
  /** The account's mails (reset links, notices): SMTP or the local outbox (nodemailer-mailer.ts). */
  mailer: Mailer;
  /** Shared with the gateway; verifies the identity signature on every request. */
  internalSecret: string;
  /** For readiness: the SQLite data folder (`dataDir`), none with MongoDB (see StorageWatch). */
  storage?: ServiceAppOptions['storage'];
  /** The time of reset links; tests may inject a clock. */
  now?: () => Date;
}

export interface UsersApp extends ServiceApp {
  /** Resolves once the work begun after answering (mails) has settled: before the store and the mailer close. */
  settled: () => Promise<void>;
}

/** The svc-users Koa app (not listening): kit middleware in the kit's order, then the `/user` and `/internal` routes. */
export function createApp({ repository, hasher, logger, mailer, internalSecret, storage, now }: AppDeps): UsersApp {
  const service = new UsersService({ repository, hasher, logger, mailer, now });
  const app = createServiceApp({
    name: 'svc-users',
    logger,
    internalSecret,
    ready: () => repository.ping(),
    storage,
    routes: [usersRoutes(service), internalUsersRoutes(service), internalPasswordResetRoutes(service), calendarFeedRoutes(service), internalCalendarFeedRoutes(service)],
  });
  return { ...app, settled: () => service.settled() };
}
