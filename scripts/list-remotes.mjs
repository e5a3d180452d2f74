#!/usr/bin/env node
// Prints the REMOTES value for `npm start` (the `serve` script): every built remote of the workspace, found
// by pattern (`mfe-<key>/dist`, key = the folder's name without `mfe-`), so a new remote is served without a
// change here (docs/ADDING_A_REMOTE.md). A remote that has not been built (no dist/remote.json) is left out.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const remotes = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && /^mfe-[a-z][a-z0-9-]*$/.test(entry.name))
  .filter((entry) => existsSync(path.join(root, entry.name, 'dist', 'remote.json')))
  .map((entry) => `${entry.name.slice('mfe-'.length)}=${entry.name}/dist`)
  .sort();
process.stdout.write(remotes.join(','));
