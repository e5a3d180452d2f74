/**
 * The shell's own build, for the About dialog: its package version and the build id, both written in by
 * shell/rspack.config.mjs (DefinePlugin: env BUILD_ID, else the git commit, else `dev`). Unbuilt (tests),
 * both are `dev`.
 */
export const SHELL_BUILD = {
  version: process.env.SHELL_VERSION ?? 'dev',
  buildId: process.env.SHELL_BUILD_ID ?? 'dev',
} as const;
