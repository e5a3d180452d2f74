import { loadConfig, loadServiceConfig, optionalText, SERVICE_PORTS, type ServiceConfig } from '@tm/service-kit';
import { z } from 'zod';

/** The account mails (docs/PRODUCT.md §10.10): where they go, and from whom. */
const MailEnv = z
  .object({
    /**
     * `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://…:465`: reset links and
     * notices go there. Unset: the embedded default, the local outbox under DATA_DIR and the log.
     */
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
    /** The sender of those mails, `Task Manager <no-reply@example.com>`; required with SMTP_URL. */
    MAIL_FROM: optionalText,
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, { path: ['MAIL_FROM'], message: 'is required when SMTP_URL is set' });

/** The sender of the embedded default's mails (the outbox: nothing leaves the machine). */
export const LOCAL_MAIL_FROM = 'Task Manager <no-reply@localhost>';

export type UsersConfig = ServiceConfig & {
  SMTP_URL: string | undefined;
  MAIL_FROM: string;
};

/** svc-users' environment (listens on `USERS_PORT`, default 4001; see {@link loadServiceConfig}) and its mail settings. */
export function loadUsersConfig(env: NodeJS.ProcessEnv = process.env): UsersConfig {
  const service = loadServiceConfig(SERVICE_PORTS.users, env);
  const mail = loadConfig(MailEnv, env);
  return { ...service, SMTP_URL: mail.SMTP_URL, MAIL_FROM: mail.MAIL_FROM ?? LOCAL_MAIL_FROM };
}
