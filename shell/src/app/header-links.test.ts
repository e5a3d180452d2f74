import type { PublicUser } from '@tm/api-client';
import type { RemoteCatalog } from '../features/remotes/remote-catalog';
import { headerLinks } from './catalog-routes';

const USER: PublicUser = { _id: '0123456789abcdef01234567', fullName: 'Ada', email: 'ada@example.com' };

function catalog({ tasks, stats, help }: { tasks?: { label: string; order?: number }; stats: number | undefined; help: number | undefined }): RemoteCatalog {
  return {
    remotes: {
      mfe_tasks: { manifest: '/remotes/tasks/mf-manifest.json', routes: [{ path: '/', module: './TaskListPage', guard: 'signed-in', title: 'Tasks', name: 'task list', ...(tasks ? { headerLink: tasks } : {}) }] },
      mfe_stats: {
        manifest: '/remotes/stats/mf-manifest.json',
        routes: [
          { path: '/stats', module: './StatsPage', guard: 'signed-in', title: 'Statistics', name: 'statistics', headerLink: { label: 'Stats', ...(stats === undefined ? {} : { order: stats }) } },
          { path: '/help', module: './HelpPage', guard: 'public', title: 'Help', name: 'help', headerLink: { label: 'Help', ...(help === undefined ? {} : { order: help }) } },
        ],
      },
    },
  };
}

const labels = (value: RemoteCatalog, user: PublicUser | null = USER) => headerLinks(value, user).map((link) => link.label);

describe('the header links (docs/PRODUCT.md §2 Header)', () => {
  it('are placed by their declared order, then in catalog order, undeclared last', () => {
    expect(labels(catalog({ stats: 20, help: 10 }))).toEqual(['Tasks', 'Help', 'Stats']);
    expect(labels(catalog({ stats: undefined, help: undefined }))).toEqual(['Tasks', 'Stats', 'Help']);
    expect(labels(catalog({ stats: undefined, help: 5 }))).toEqual(['Tasks', 'Help', 'Stats']);
  });

  it('give the task list a link of its own (order 0, named by its title) once any screen has one', () => {
    expect(headerLinks(catalog({ stats: 0, help: undefined }), USER)[0]).toEqual({ to: '/', label: 'Tasks' });
    // A link the task list declares is used as it is, with its order (none: last).
    expect(labels(catalog({ tasks: { label: 'My tasks' }, stats: 3, help: 4 }))).toEqual(['Stats', 'Help', 'My tasks']);
    // Signed out, the task list is not offered, and a lone public link stays alone.
    expect(labels(catalog({ stats: 1, help: 2 }), null)).toEqual(['Help']);
  });

  it('are none when no screen declares one', () => {
    const none = catalog({ stats: undefined, help: undefined });
    for (const route of Object.values(none.remotes).flatMap((remote) => remote.routes)) delete (route as { headerLink?: unknown }).headerLink;
    expect(headerLinks(none, USER)).toEqual([]);
  });
});
