import { BaseEnv, loadConfig, localSecrets, optionalText, port, requireSecret } from '@tm/service-kit';
import { z } from 'zod';

const UsersEnv = BaseEnv.extend({
  PORT: port(4001),
  MONGO_URL: optionalText,
  MONGO_DB: z.string().min(1).default('task_manager'),
  INTERNAL_SECRET: optionalText,
});

export type UsersConfig = Omit<z.infer<typeof UsersEnv>, 'INTERNAL_SECRET'> & { INTERNAL_SECRET: string };

/**
 * The environment of svc-users, checked at boot. Throws one readable error naming every bad variable; in
 * production a missing INTERNAL_SECRET is fatal, elsewhere the shared local secret under DATA_DIR is used.
 */
export function loadUsersConfig(env: NodeJS.ProcessEnv = process.env): UsersConfig {
  const config = loadConfig(UsersEnv, env);
  const INTERNAL_SECRET = requireSecret('INTERNAL_SECRET', config.INTERNAL_SECRET, config.NODE_ENV, () =>
    localSecrets(config.DATA_DIR).internalSecret,
  );
  return { ...config, INTERNAL_SECRET };
}
