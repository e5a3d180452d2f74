// The modules this remote exposes (rspack.config.mjs "exposes"), checked against the shell's contract by
// `pnpm typecheck`: each is a module whose default export is a page the shell renders with no props. An exposed
// module without a default export, or whose page requires a prop, fails the type-check here.
import type { ExposedModules } from '@tm/remote-contract';
import type * as ExternalPage from './external-page';

export type Exposes = ExposedModules<{ './ExternalPage': typeof ExternalPage }>;
