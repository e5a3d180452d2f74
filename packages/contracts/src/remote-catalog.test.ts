import { checkRemoteBuildInfo, checkRemoteCatalog, routeAddress, routeServes, type RemoteCatalog } from './remote-catalog.js';

const good: RemoteCatalog = {
  remotes: {
    mfe_auth: {
      manifest: '/remotes/auth/mf-manifest.json',
      version: '0.1.0',
      buildId: 'abc123',
      routes: [
        { path: '/login', module: './LoginPage', guard: 'signed-out', title: 'Sign in', name: 'sign-in screen' },
        { path: '/account', module: './AccountPage', guard: 'signed-in', title: 'Account', name: 'account screen' },
      ],
    },
    mfe_stats: {
      manifest: 'https://cdn.example.com/stats/mf-manifest.json',
      routes: [{ path: '/stats', module: './StatsPage', guard: 'public', title: 'Stats', name: 'statistics', headerLink: { label: 'Stats' } }],
    },
  },
};

describe('the remote catalog (/remotes.json)', () => {
  it('accepts a catalog with routes, header links and build metadata, as it is', () => {
    expect(checkRemoteCatalog(good)).toEqual({ ok: true, catalog: good });
  });

  it('drops fields it does not know', () => {
    const check = checkRemoteCatalog({ remotes: { mfe_x: { manifest: '/x/mf-manifest.json', extra: 1, routes: [{ ...good.remotes.mfe_auth!.routes[0], colour: 'red' }] } } });
    expect(check).toEqual({ ok: true, catalog: { remotes: { mfe_x: { manifest: '/x/mf-manifest.json', routes: [good.remotes.mfe_auth!.routes[0]] } } } });
  });

  it('lists every problem with where it is', () => {
    const check = checkRemoteCatalog({
      remotes: {
        'Bad-Name': { manifest: '/a/mf-manifest.json', routes: [] },
        mfe_a: { manifest: '//evil.example/x', routes: 'none' },
        mfe_b: {
          manifest: 'javascript:alert(1)',
          routes: [
            { path: 'stats', module: 'StatsPage', guard: 'admins', title: '', name: 'x'.repeat(81), headerLink: { label: 3 } },
            { path: '/login', module: './Login', guard: 'public', title: 'Again', name: 'again' },
            { path: '/login', module: './Login', guard: 'public', title: 'Twice', name: 'twice' },
          ],
        },
      },
    });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([
      'remotes.Bad-Name: a remote\'s name is its federation name, lower-case letters, digits and _ (mfe_tasks)',
      'remotes.mfe_a.manifest must be a path starting with / or an http(s) URL',
      'remotes.mfe_a.routes must be a list (it may be empty)',
      'remotes.mfe_b.manifest must be a path starting with / or an http(s) URL',
      'remotes.mfe_b.routes[0].path must be an absolute path such as /stats (or /stats/* for it and the addresses below it)',
      'remotes.mfe_b.routes[0].module must name an exposed module such as ./StatsPage',
      'remotes.mfe_b.routes[0].guard must be one of signed-in, signed-out, public',
      'remotes.mfe_b.routes[0].title must be a non-empty string of at most 80 characters',
      'remotes.mfe_b.routes[0].name must be a non-empty string of at most 80 characters',
      'remotes.mfe_b.routes[0].headerLink.label must be a non-empty string of at most 80 characters',
      'remotes.mfe_b.routes[2].path /login is already a route of mfe_b',
    ]);
  });

  it('takes a header link order from 0 to 1000, and refuses any other', () => {
    const withOrder = (order: unknown) =>
      checkRemoteCatalog({
        remotes: { mfe_stats: { manifest: '/remotes/stats/mf-manifest.json', routes: [{ path: '/stats', module: './StatsPage', guard: 'public', title: 'Stats', name: 'statistics', headerLink: { label: 'Stats', order } }] } },
      });
    for (const order of [0, 20, 1000]) {
      const check = withOrder(order);
      expect(check.ok && check.catalog.remotes.mfe_stats?.routes[0]?.headerLink).toEqual({ label: 'Stats', order });
    }
    for (const order of [-1, 1.5, 1001, '3', null]) {
      expect(withOrder(order)).toEqual({ ok: false, problems: ['remotes.mfe_stats.routes[0].headerLink.order must be a whole number from 0 to 1000'] });
    }
  });

  it('refuses what is not a catalog at all', () => {
    for (const value of [null, [], 'remotes', { remotes: [] }, { mfe_auth: '/remotes/auth/mf-manifest.json' }]) {
      expect(checkRemoteCatalog(value)).toEqual({ ok: false, problems: ['the catalog must be an object with a "remotes" object'] });
    }
  });
});

describe('a route that serves the addresses below it (`/lists/*`)', () => {
  const route = (path: string) => ({ remotes: { mfe_tasks: { manifest: '/remotes/tasks/mf-manifest.json', routes: [{ path, module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list' }] } } });

  it('is a plain path ending in /*; the home screen and a parameter cannot be one', () => {
    expect(checkRemoteCatalog(route('/lists/*'))).toMatchObject({ ok: true });
    for (const path of ['/*', '/lists/*/more', '/lists/:listId', '/lists*']) expect(checkRemoteCatalog(route(path))).toMatchObject({ ok: false });
  });

  it('links to its own address and serves it and every address below it, exactly as written', () => {
    expect(routeAddress('/lists/*')).toBe('/lists');
    expect(routeAddress('/account')).toBe('/account');
    expect(['/lists', '/lists/', '/lists/inbox', '/lists/66f0c2a9e1b2c3d4e5f60718'].map((address) => routeServes('/lists/*', address))).toEqual([true, true, true, true]);
    expect(['/listsx', '/', '/Lists/inbox'].map((address) => routeServes('/lists/*', address))).toEqual([false, false, false]);
    expect([routeServes('/account', '/account/'), routeServes('/account', '/account/x'), routeServes('/', '/')]).toEqual([true, false, true]);
  });
});

describe("a remote's build info (dist/remote.json)", () => {
  it('is checked with the catalog rules', () => {
    const routes = good.remotes.mfe_auth!.routes;
    expect(checkRemoteBuildInfo({ name: 'mfe_auth', version: '0.1.0', buildId: 'abc123', routes })).toEqual({
      ok: true,
      info: { name: 'mfe_auth', version: '0.1.0', buildId: 'abc123', routes },
    });
    expect(checkRemoteBuildInfo({ name: 'mfe_auth', routes: [{ path: 'login' }] })).toMatchObject({ ok: false });
    expect(checkRemoteBuildInfo({ routes })).toEqual({ ok: false, problems: ['remote.json must be an object with a "name"'] });
  });
});

describe('account-menu links', () => {
  const account = { path: '/account', module: './AccountPage', guard: 'signed-in', title: 'Account', name: 'account screen' } as const;

  it('are kept on a signed-in route', () => {
    const catalog = { remotes: { mfe_auth: { manifest: '/a/mf-manifest.json', routes: [{ ...account, accountMenuLink: { label: 'Account settings' } }] } } };
    expect(checkRemoteCatalog(catalog)).toEqual({ ok: true, catalog });
  });

  it('are refused on a route the account menu is never shown for, or without a label', () => {
    const check = checkRemoteCatalog({
      remotes: { mfe_auth: { manifest: '/a/mf-manifest.json', routes: [{ ...account, guard: 'public', accountMenuLink: { label: 'Account' } }, { ...account, path: '/b', accountMenuLink: 'Account' }] } },
    });
    expect(check).toEqual({
      ok: false,
      problems: [
        'remotes.mfe_auth.routes[0].accountMenuLink is only for a signed-in route (the account menu is shown to signed-in users)',
        'remotes.mfe_auth.routes[1].accountMenuLink must be an object with a label',
      ],
    });
  });
});

describe('early API reads of a route (prefetch)', () => {
  const tasks = { path: '/', module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list' } as const;

  it('are kept on a signed-in route', () => {
    const catalog = { remotes: { mfe_tasks: { manifest: '/t/mf-manifest.json', routes: [{ ...tasks, prefetch: ['/api/todo/fetch-todo'] }] } } };
    expect(checkRemoteCatalog(catalog)).toEqual({ ok: true, catalog });
  });

  it('are refused when they are not plain API paths, too many, or on a route that is not signed in', () => {
    const check = checkRemoteCatalog({
      remotes: {
        mfe_tasks: {
          manifest: '/t/mf-manifest.json',
          routes: [
            { ...tasks, prefetch: ['/api/todo/fetch-todo?all=1'] },
            { ...tasks, path: '/b', prefetch: ['https://evil.example/api/x'] },
            { ...tasks, path: '/c', prefetch: ['/api/../metrics'] },
            { ...tasks, path: '/d', prefetch: ['/api/a', '/api/b', '/api/c', '/api/d', '/api/e'] },
            { ...tasks, path: '/e', prefetch: '/api/todo/fetch-todo' },
            { ...tasks, path: '/f', guard: 'public', prefetch: ['/api/todo/fetch-todo'] },
          ],
        },
      },
    });
    expect(check).toEqual({
      ok: false,
      problems: [
        ...['[0]', '[1]', '[2]', '[3]', '[4]'].map((at) => `remotes.mfe_tasks.routes${at}.prefetch must be a list of at most 4 API paths such as /api/todo/fetch-todo`),
        "remotes.mfe_tasks.routes[5].prefetch is only for a signed-in route (the reads are the signed-in user's)",
      ],
    });
  });
});
