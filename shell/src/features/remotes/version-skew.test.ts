import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInstance } from '@module-federation/enhanced/runtime';
import offlineRemotePlugin from './offline-remote.plugin';
import { RemoteFallback } from './remote-fallback';
import { versionSkewOf } from './version-skew';

/**
 * Version skew at run time, with the federation runtime the shell ships: the shell provides its singletons,
 * a remote asks for them as packages/build-config/shared-deps.mjs declares them (singleton, strictVersion,
 * the same major as its own pinned version) under the build's `loaded-first` strategy.
 */
const SINGLETONS = ['react', 'react-dom', 'react-router-dom', '@tanstack/react-query', 'react-hot-toast'];
const shellDependencies = (JSON.parse(readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
const major = (version: string) => Number(version.split('.')[0]);

/** A shared module as a build registers it: not loaded until someone asks for it. */
function provide(name: string, version: string) {
  return {
    version,
    get: () => Promise.resolve(() => ({ name, version })),
    shareConfig: { singleton: true, strictVersion: true, requiredVersion: `^${major(version)}.0.0` },
  };
}

/** The shell, with its singletons provided and loaded, as on a page. */
async function shellPage() {
  const shell = createInstance({
    name: 'shell',
    remotes: [],
    shareStrategy: 'loaded-first',
    shared: Object.fromEntries(SINGLETONS.map((name) => [name, provide(name, shellDependencies[name] as string)])),
  });
  for (const name of SINGLETONS) await shell.loadShare(name);
  return shell;
}

/** A remote built against `version` of `name`, in the page's share scope: what does it get? */
async function remoteGets(shell: Awaited<ReturnType<typeof shellPage>>, remoteName: string, name: string, version: string) {
  const remote = createInstance({ name: remoteName, remotes: [], shareStrategy: 'loaded-first', shared: { [name]: provide(name, version) } });
  remote.initShareScopeMap('default', shell.shareScopeMap.default as never);
  const factory = await remote.loadShare<{ version: string }>(name);
  return factory ? (factory() as { version: string }).version : undefined;
}

describe('shared singletons across versions', () => {
  it.each(SINGLETONS)('a remote built against a newer minor of %s shares the shell\'s copy', async (name) => {
    const shell = await shellPage();
    const provided = shellDependencies[name] as string;
    await expect(remoteGets(shell, `mfe_minor_${SINGLETONS.indexOf(name)}`, name, `${major(provided)}.999.0`)).resolves.toBe(provided);
  });

  it.each(SINGLETONS)('a remote built against the next major of %s fails to load, and the log says why', async (name) => {
    const shell = await shellPage();
    const provided = shellDependencies[name] as string;
    const remote = `mfe_major_${SINGLETONS.indexOf(name)}`;
    const error = await remoteGets(shell, remote, name, `${major(provided) + 1}.0.0`).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(versionSkewOf(error)).toEqual({ remote, shared: name, required: `^${major(provided) + 1}.0.0`, provided, providedBy: 'shell' });

    // The shell's runtime plugin turns it into the fallback (with Retry) and logs the remote, the package,
    // the required and the provided versions.
    const log = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const plugin = offlineRemotePlugin();
    const answer = await plugin.errorLoadRemote?.({ id: `${remote}/Page`, error, from: 'runtime', lifecycle: 'onLoad', origin: shell } as never);
    expect(answer).toEqual({ __esModule: true, default: RemoteFallback });
    expect(log).toHaveBeenCalledWith(
      `Remote module "${remote}/Page" failed to load: Remote ${remote} was built for ${name} ^${major(provided) + 1}.0.0, but this page runs ${name} ${provided} (from shell): it is not loaded. Rebuild ${remote} against the shell's major version of ${name}.`,
      error,
    );
    log.mockRestore();
  });

  it('reads nothing into an error that is not a version mismatch', () => {
    expect(versionSkewOf(new Error('[ Federation Runtime ]: Failed to fetch'))).toBeUndefined();
    expect(versionSkewOf(undefined)).toBeUndefined();
  });
});
