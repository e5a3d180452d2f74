// `pnpm bench` must run on a fresh machine: the tools it drives that come from Debian's packages (nginx for
// the proxy baseline, Chromium for the first-load and long-list benches) are installed when missing and we
// are root, as .ci/run does for the tests; otherwise the bench that needs them is skipped with the reason.
import { execFileSync, spawnSync } from 'node:child_process';

/**
 * The path of a program from a Debian package, installing the package when the program is missing.
 * @param {string} command   the program's name on the PATH (or an absolute path)
 * @param {string} fallback  where the package puts it when it is not on the PATH (e.g. /usr/sbin/nginx)
 * @param {string} pkg       the Debian package that provides it
 * @returns {{ binary: string } | { skipped: string }}
 */
export function ensureDebianProgram(command, fallback, pkg) {
  const found = spawnSync('sh', ['-c', `command -v ${command} || ls ${fallback}`], { encoding: 'utf8' });
  if (found.status === 0) return { binary: found.stdout.trim().split('\n')[0] };
  if (process.getuid?.() !== 0) return { skipped: `${command} is not installed and this is not root, so it cannot be installed (apt-get install -y ${pkg})` };
  console.log(`[bench] ${command} not found: installing Debian's ${pkg} (apt-get install -y ${pkg})`);
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return { binary: fallback };
  } catch (error) {
    return { skipped: `apt-get install -y ${pkg} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
