// The modules this remote exposes (rspack.config.mjs "exposes"), checked against the contract of
// @tm/remote-kit by `pnpm typecheck`: a default export the shell renders with no props. Keep it in step
// with rspack.config.mjs (packages/build-config/src/exposes-contract.test.ts checks that it is).
import type { ExposedModules } from '@tm/remote-kit';
import type * as AgendaPage from './agenda-page';

export type Exposes = ExposedModules<{ './AgendaPage': typeof AgendaPage }>;
