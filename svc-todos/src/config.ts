import { BaseEnv, loadConfig, localSecrets, requireSecret } from '@tm/service-kit';
import { z } from 'zod';

// An empty variable (`MONGO_URL=` in a compose file) means "not set", not "an invalid URL".
const optionalText = z
  .string()
  .optional()
  .transform((value) => value || undefined);

const TodosEnv = BaseEnv.extend({
  PORT: z.coerce.number().int().min(0).max(65_535).default(4002),
  MONGO_URL: optionalText,
  MONGO_DB: z.string().min(1).default('task_manager'),
  INTERNAL_SECRET: optionalText,
});

/** svc-todos configuration, with the internal secret resolved. */
export type TodosConfig = Omit<z.infer<typeof TodosEnv>, 'INTERNAL_SECRET'> & { INTERNAL_SECRET: string };

/**
 * Reads the environment; throws one readable error for bad variables, and in production for a missing
 * `INTERNAL_SECRET`. Outside production a local secret shared through `DATA_DIR` is used.
 */
export function loadTodosConfig(env: NodeJS.ProcessEnv = process.env): TodosConfig {
  const config = loadConfig(TodosEnv, env);
  const internalSecret = requireSecret(
    'INTERNAL_SECRET',
    config.INTERNAL_SECRET,
    config.NODE_ENV,
    () => localSecrets(config.DATA_DIR).internalSecret,
  );
  return { ...config, INTERNAL_SECRET: internalSecret };
}
