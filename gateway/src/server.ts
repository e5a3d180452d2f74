import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createLogger, runMain, runServer, startTracing, StartupWatch } from '@tm/service-kit';
import { createApp } from './app.js';
import { limitConnectionsPerAddress } from './connection-limit.js';
import { readGatewayConfig } from './config.js';
import { openSessionStore, sessionStoreWaitingOn } from './open-session.store.js';
import { RemoteFolders } from './remote-folders.js';

runMain('gateway', async () => {
  const config = readGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);
  // Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set; else nothing is started (docs/OPERATIONS.md "Traces").
  startTracing('gateway', logger);
  const { shell, remotes, catalog, overrideOrigins } = config.web;
  // A bad REMOTES_FILE stops the start here, with what is wrong.
  const web = { shell, catalog, overrideOrigins, ...(remotes ? { remotes: RemoteFolders.open({ ...remotes, logger }) } : {}) };
  if (overrideOrigins) logger.warn({ origins: overrideOrigins }, 'REMOTE_OVERRIDES is on: a browser may load a remote from these origins for itself');
  // Opening the session store and binding each port have a bound; past it, one line says what was waited on (service-kit startup.ts).
  const startup = new StartupWatch({ name: 'gateway', logger, bounds: config.startup });
  const sessions = { redisUrl: config.redisUrl, dataDir: config.dataDir };
  const { store, redis } = await startup.openStore(sessionStoreWaitingOn(sessions), (opening) => openSessionStore({ ...sessions, logger, opening }));
  const gateway = createApp({ config, sessionStore: store, logger, redis, web });
  // Probes and Prometheus on their own port: readiness and metrics are not the public's (SECURITY.md "Limits and timeouts").
  // Koa's listener, as ops.listen() would pass it (a promise Node does not wait for); bound here, within the start-up's bound.
  const ops = createServer(gateway.ops.callback() as (request: IncomingMessage, response: ServerResponse) => void);
  const opsPort = await startup.listen(ops, { port: config.ops.port, host: config.ops.host, variable: 'OPS_PORT' });
  logger.info({ port: opsPort, host: config.ops.host }, 'ops listening');
  await runServer({
    app: gateway.app,
    port: config.port,
    host: config.host,
    logger,
    onDrain: gateway.drain,
    drainMs: config.shutdownDrainMs,
    startup,
    portVariable: 'PORT',
    // A client cannot hold the gateway's sockets: slow or unfinished requests, too many at once (SECURITY.md "Limits and timeouts").
    clientLimits: config.clients,
    prepare: (server) => {
      const { maxConnectionsPerAddress } = config.clients;
      if (maxConnectionsPerAddress > 0) limitConnectionsPerAddress(server, { maxPerAddress: maxConnectionsPerAddress, registry: gateway.registry });
    },
    close: async () => {
      gateway.close();
      ops.closeAllConnections();
      await new Promise((resolve) => ops.close(resolve));
      await store.close();
    },
  });
});
