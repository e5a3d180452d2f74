#!/usr/bin/env node
// `pnpm lint:openapi` (part of `pnpm lint`): the OpenAPI document the gateway serves at /api/openapi.json
// (docs/PRODUCT.md §10.11.7), held to two outside linters: Redocly's `recommended-strict` rules (redocly.yaml)
// and Spectral's `spectral:oas` ruleset (.spectral.yaml). The document is generated from the built contracts
// (`tsc -b packages/contracts` first: a no-op when they are up to date) into a temporary file, exactly as the
// gateway generates it, and both linters must report nothing: no error, no warning. A rule turned off says why
// in its config file.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/** Redocly CLI sends usage data and looks for updates unless told not to: a lint sends nothing anywhere. */
const QUIET = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' };

/** Runs a command from the repository's root, its output shown as it comes; resolves its exit status. */
function run(label, command, args) {
  console.log(`\n[lint:openapi] ${label}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...QUIET } });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

if (run('building the contracts (tsc -b packages/contracts)', bin('tsc'), ['-b', 'packages/contracts']) !== 0) process.exit(1);

// The gateway serves the document made by this function with its session cookie's name (gateway/src/openapi.routes.ts).
const { createOpenApiDocument } = createRequire(import.meta.url)(path.join(root, 'packages/contracts/dist/openapi.js'));
const dir = mkdtempSync(path.join(tmpdir(), 'tm-openapi-'));
const file = path.join(dir, 'openapi.json');
let failed = 0;
try {
  writeFileSync(file, JSON.stringify(createOpenApiDocument({ sessionCookie: 'tm.sid' }), null, 2));
  failed += run(`redocly lint (redocly.yaml) ${file}`, bin('redocly'), ['lint', file, '--config', 'redocly.yaml', '--format', 'stylish']) === 0 ? 0 : 1;
  failed += run(`spectral lint (.spectral.yaml) ${file}`, bin('spectral'), ['lint', file, '--ruleset', '.spectral.yaml', '--fail-severity', 'hint']) === 0 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed > 0) {
  console.error(`\n[lint:openapi] the OpenAPI document has problems (see above): fix the generator, packages/contracts/src/openapi.ts`);
  process.exit(1);
}
console.log('\n[lint:openapi] the OpenAPI document is clean for both linters');
