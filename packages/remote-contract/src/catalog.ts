// The remote catalog's types and checks (packages/contracts/src/remote-catalog.ts, no dependencies): what a
// remote declares in its package.json "remote" and writes to dist/remote.json, checked at build time with the
// rules the gateway and the shell apply. Its own entry (`@tm/remote-contract/catalog`) so that a build
// configuration loads it without React.
export {
  checkRemoteBuildInfo,
  checkRemoteCatalog,
  MAX_HEADER_LINK_ORDER,
  ROUTE_GUARDS,
  type BuildInfoCheck,
  type CatalogCheck,
  type HeaderLinkDeclaration,
  type RemoteBuildInfo,
  type RemoteCatalog,
  type RemoteDescription,
  type RemoteRoute,
  type RouteGuard,
} from '../../contracts/src/remote-catalog.js';
