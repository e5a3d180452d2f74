import { loadServiceConfig, type ServiceConfig } from '@tm/service-kit';

export type UsersConfig = ServiceConfig;

/** svc-users' environment (default port 4001); see {@link loadServiceConfig}. */
export function loadUsersConfig(env: NodeJS.ProcessEnv = process.env): UsersConfig {
  return loadServiceConfig(4001, env);
}
