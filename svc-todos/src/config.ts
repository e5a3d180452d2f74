import { loadServiceConfig, type ServiceConfig } from '@tm/service-kit';

export type TodosConfig = ServiceConfig;

/** svc-todos' environment (default port 4002); see {@link loadServiceConfig}. */
export function loadTodosConfig(env: NodeJS.ProcessEnv = process.env): TodosConfig {
  return loadServiceConfig(4002, env);
}
