import { createServiceApp, type Logger, type ServiceApp } from '@tm/service-kit';
import type { TodosRepository } from './todos.repository.js';
import { internalTodosRoutes, todosRoutes } from './todos.routes.js';
import { TodosService } from './todos.service.js';

export interface TodosAppDeps {
  repository: TodosRepository;
  logger: Logger;
  /** Shared with the gateway; verifies the signed identity on every request. */
  internalSecret: string;
}

/** The svc-todos Koa app (not listening): the kit's middleware stack around the task routes and the gateway-only purge. */
export function createApp({ repository, logger, internalSecret }: TodosAppDeps): ServiceApp {
  const service = new TodosService(repository);
  return createServiceApp({
    name: 'svc-todos',
    logger,
    internalSecret,
    ready: () => repository.ping(),
    routes: [todosRoutes(service), internalTodosRoutes(service)],
  });
}
