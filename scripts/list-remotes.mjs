#!/usr/bin/env node
// Prints the REMOTES value for `npm start` (the `serve` script): every built remote of the workspace, found
// by pattern (`mfe-<key>/dist`), so a new remote is served without a change here (docs/ADDING_A_REMOTE.md).
// The supervisor (scripts/serve.mjs) gives the gateway the same value, from the same function, when REMOTES
// is unset or empty; this prints it for a person or another script.
import path from 'node:path';
import { builtRemotes } from '../packages/build-config/workspace-remotes.mjs';

process.stdout.write(builtRemotes(path.resolve(import.meta.dirname, '..')));
