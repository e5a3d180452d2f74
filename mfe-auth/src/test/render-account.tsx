import { PlatformProviders } from '@tm/web-platform';
import { render, screen } from '@testing-library/react';
import { testQueryClient } from '@tm/web-test-support';
import { MemoryRouter } from 'react-router-dom';
import { App } from '../app/app';

/** The Account screen inside the standalone app, with the real providers, once its heading shows. */
export async function renderAccount() {
  const queryClient = testQueryClient();
  const rendered = render(
    <PlatformProviders queryClient={queryClient}>
      <MemoryRouter initialEntries={['/account']}>
        <App />
      </MemoryRouter>
    </PlatformProviders>,
  );
  await screen.findByRole('heading', { level: 1, name: 'Account' });
  return { ...rendered, queryClient };
}
