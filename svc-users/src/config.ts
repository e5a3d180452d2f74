import { loadServiceConfig, SERVICE_PORTS, type ServiceConfig } from '@tm/service-kit';

export type UsersConfig = ServiceConfig;

/** svc-users' environment (listens on `USERS_PORT`, default 4001); see {@link loadServiceConfig}. */
export function loadUsersConfig(env: NodeJS.ProcessEnv = process.env): UsersConfig {
  return loadServiceConfig(SERVICE_PORTS.users, env);
}
