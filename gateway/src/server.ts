import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createLogger, runMain, runServer } from '@tm/service-kit';
import { createApp } from './app.js';
import { limitConnectionsPerAddress } from './connection-limit.js';
import { readGatewayConfig } from './config.js';
import { openSessionStore } from './open-session.store.js';
import { RemoteFolders } from './remote-folders.js';

runMain('gateway', async () => {
  const config = readGatewayConfig();
  const logger = createLogger('gateway', config.logLevel);
  const { shell, remotes, catalog } = config.web;
  // A bad REMOTES_FILE stops the start here, with what is wrong.
  const web = { shell, catalog, ...(remotes ? { remotes: RemoteFolders.open({ ...remotes, logger }) } : {}) };
  const { store, redis } = await openSessionStore({ redisUrl: config.redisUrl, dataDir: config.dataDir, logger });
  const gateway = createApp({ config, sessionStore: store, logger, redis, web });
  // Probes and Prometheus on their own port (issue #21): readiness and metrics are not the public's.
  const ops = gateway.ops.listen(config.ops.port, config.ops.host);
  await once(ops, 'listening');
  logger.info({ port: (ops.address() as AddressInfo).port, host: config.ops.host }, 'ops listening');
  await runServer({
    app: gateway.app,
    port: config.port,
    host: config.host,
    logger,
    onDrain: gateway.drain,
    drainMs: config.shutdownDrainMs,
    // issue #21: a client cannot hold the gateway's sockets (slow or unfinished requests, too many at once).
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
