import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { rspack } from '@rspack/core';
import { createConfig } from '@tm/build-config';

const base = createConfig({
  dir: import.meta.dirname,
  name: 'shell',
  port: 3000,
  title: 'Task Manager',
  runtimePlugins: [path.join(import.meta.dirname, 'src/features/remotes/offline-remote.plugin.ts')],
});

/** The build id the About dialog shows: env BUILD_ID (CI), else the git commit, else `dev`. */
function buildId() {
  if (process.env.BUILD_ID) return process.env.BUILD_ID;
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: import.meta.dirname, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || 'dev';
  } catch {
    return 'dev';
  }
}

/** The shared configuration, plus the shell's version and build id written into its code (src/features/about/shell-build.ts). */
export default (env, argv) => {
  const config = base(env, argv);
  const { version } = JSON.parse(readFileSync(path.join(import.meta.dirname, 'package.json'), 'utf8'));
  const production = argv.mode !== 'development';
  config.plugins.push(
    new rspack.DefinePlugin({
      'process.env.SHELL_VERSION': JSON.stringify(version),
      'process.env.SHELL_BUILD_ID': JSON.stringify(production ? buildId() : 'dev'),
    }),
  );
  return config;
};
