import path from 'node:path';
import { createLogger, runMain, runServer, SERVICE_PORTS, startTracing, StartupWatch, startupBounds, traceMethods } from '@tm/service-kit';
import { createApp } from './app.js';
import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { loadUsersConfig } from './config.js';
import { createMailer } from './nodemailer-mailer.js';
import { openUsersStore } from './open-users.store.js';
import { SQLITE_FILE } from './sqlite-users.store.js';
import type { PasswordHasher } from './password.hasher.js';
import type { UsersRepository } from './users.repository.js';

/** The store calls a request makes, each a span `store.<call>` when tracing is on (ping and close are not a request's). */
const TRACED_STORE_CALLS = [
  'create',
  'findByEmail',
  'findById',
  'updatePasswordHash',
  'replacePasswordHash',
  'updateProfile',
  'delete',
  'createPasswordReset',
  'findPasswordReset',
  'consumePasswordReset',
  'deletePasswordResets',
  'deleteExpiredPasswordResets',
] as const satisfies readonly (keyof UsersRepository)[];
/** The hashing of a sign-up or sign-in, the longest part of it (Argon2id, tens of ms): `password.hash`, `password.verify`. */
const TRACED_HASHER_CALLS = ['hash', 'verify'] as const satisfies readonly (keyof PasswordHasher)[];

runMain('svc-users', async () => {
  const config = loadUsersConfig();
  const logger = createLogger('svc-users', config.LOG_LEVEL);
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; else nothing is started (docs/OPERATIONS.md "Traces").
  startTracing('svc-users', logger);
  // Never log MONGO_URL itself: it may carry credentials.
  logger.info({ store: config.MONGO_URL ? 'mongodb' : 'sqlite' }, 'opening store');
  // Opening the store and binding the port each have a bound; past it, one line says what was waited on.
  const startup = new StartupWatch({ name: 'svc-users', logger, bounds: startupBounds(config) });
  const waitingOn = config.MONGO_URL ? 'MongoDB (MONGO_URL: connecting, selecting a server)' : `the SQLite file ${path.resolve(config.DATA_DIR, SQLITE_FILE)}`;
  const store = await startup.openStore(waitingOn, (opening) => openUsersStore({ mongoUrl: config.MONGO_URL, mongoDb: config.MONGO_DB, dataDir: config.DATA_DIR, opening }));
  const repository = traceMethods(store, 'store', TRACED_STORE_CALLS, { 'db.system.name': config.MONGO_URL ? 'mongodb' : 'sqlite' });
  // Never log SMTP_URL either: it may carry the server's password.
  logger.info({ mail: config.SMTP_URL ? 'smtp' : 'outbox' }, 'account mail');
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, logger });
  const { app, drain, settled } = createApp({
    repository,
    mailer,
    hasher: traceMethods<PasswordHasher>(new Argon2idPasswordHasher(), 'password', TRACED_HASHER_CALLS),
    logger,
    internalSecret: config.INTERNAL_SECRET,
    // Readiness watches the free space of the SQLite data folder; MongoDB's disk is the server's.
    storage: { dataDir: config.MONGO_URL ? undefined : config.DATA_DIR },
  });
  await runServer({
    app,
    port: config.PORT,
    host: config.HOST,
    logger,
    // Mails begun before the stop are sent (or fail and are logged) before the store and the mailer close.
    close: async () => {
      await settled();
      mailer.close();
      await repository.close();
    },
    onDrain: drain,
    drainMs: config.SHUTDOWN_DRAIN_MS,
    startup,
    portVariable: SERVICE_PORTS.users.variable,
  });
});
