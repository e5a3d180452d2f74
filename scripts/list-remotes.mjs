#!/usr/bin/env node
// Prints the REMOTES value for `npm start` (the `serve` script): every built remote of the workspace, found
// by pattern (`mfe-<key>/dist`), so a new remote is served without a change here (docs/ADDING_A_REMOTE.md).
import path from 'node:path';
import { builtRemotes } from '../packages/build-config/workspace-remotes.mjs';

process.stdout.write(builtRemotes(path.resolve(import.meta.dirname, '..')));
