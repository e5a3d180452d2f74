import { createLogger, type Logger } from '@tm/service-kit';
import { listen, tempDir, TEST_SECRET } from '@tm/test-support';
import { createApp } from './app.js';
import { Argon2idPasswordHasher } from './argon2id-password.hasher.js';
import { LOCAL_MAIL_FROM } from './config.js';
import type { Mailer } from './mailer.js';
import { createMailer } from './nodemailer-mailer.js';
import type { PasswordHasher } from './password.hasher.js';
import { SqliteUsersStore } from './sqlite-users.store.js';
import type { UsersRepository } from './users.repository.js';

/** A running svc-users for tests: real HTTP, a real SQLite file in a temp dir. */
export interface TestService {
  url: string;
  /** The folder of the service's SQLite file (`users.sqlite`) and of its mail outbox (`outbox/`). */
  dataDir: string;
  repository: UsersRepository;
  logger: Logger;
  /** Resolves once the mails begun after earlier answers have been sent (or failed). */
  settled: () => Promise<void>;
  stop: () => Promise<void>;
}

export interface TestServiceOptions {
  /** The clock of reset links (created, expiring, used). */
  now?: () => Date;
  /** The mailer, given the data folder: the local outbox there by default, as without SMTP_URL. */
  mailer?: (dataDir: string, logger: Logger) => Mailer;
  /** The production Argon2id hasher by default. */
  hasher?: PasswordHasher;
}

/**
 * Starts the service the way server.ts does, on an ephemeral port, with the production hasher: Argon2id at
 * OWASP's cost is ~15 ms a hash, cheap enough for every test.
 */
export async function startTestService({ now, mailer, hasher = new Argon2idPasswordHasher() }: TestServiceOptions = {}): Promise<TestService> {
  const { dir, remove } = tempDir('tm-svc-users-');
  const repository = SqliteUsersStore.open({ dataDir: dir });
  const logger = createLogger('svc-users', process.env.LOG_LEVEL);
  const mail = mailer ? mailer(dir, logger) : createMailer({ from: LOCAL_MAIL_FROM, dataDir: dir, logger });
  const { app, settled } = createApp({ repository, hasher, logger, mailer: mail, internalSecret: TEST_SECRET, now });
  const server = await listen(app);
  return {
    url: server.url,
    dataDir: dir,
    repository,
    logger,
    settled,
    stop: async () => {
      await server.close();
      await settled();
      mail.close();
      await repository.close();
      remove();
    },
  };
}
