import { render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { exposePage, type ExposedModules, type ExposedPage, type ExposedPageModule } from './exposed-page';

function StatsScreen({ headingId }: { headingId: string }) {
  return <h1 id={headingId}>Statistics</h1>;
}

describe('exposePage', () => {
  it('renders the screen in a <section> named by its heading, with the class asked for', () => {
    const Page = exposePage(StatsScreen, { className: 'stats-page' });
    render(<Page />);
    const region = screen.getByRole('region', { name: 'Statistics' });
    expect(region.tagName).toBe('SECTION');
    expect(region).toHaveClass('stats-page');
    expect(Page.displayName).toBe('Exposed(StatsScreen)');
  });
});

// The type contract (checked by `pnpm typecheck`, tsconfig.web.json; nothing here runs): the shell renders an
// exposed page with no props, so a page that requires one is a breaking change the type-check refuses.
function NeedsATitle({ title }: { title: string }) {
  return <h1>{title}</h1>;
}
function TakesOptionalProps({ compact }: { compact?: boolean }) {
  return <p>{compact ? 'compact' : 'full'}</p>;
}
export const typeContract: unknown[] = [
  exposePage(StatsScreen) satisfies ExposedPage,
  { default: exposePage(StatsScreen) } satisfies ExposedPageModule,
  TakesOptionalProps satisfies ExposedPage,
  // @ts-expect-error a page with a required prop is not an ExposedPage
  NeedsATitle satisfies ExposedPage,
  // @ts-expect-error nor is a module whose page requires one
  { default: NeedsATitle } satisfies ExposedPageModule,
  // @ts-expect-error nor is a module without a default export (a named export only)
  { StatsPage: exposePage(StatsScreen) } satisfies ExposedPageModule,
  // @ts-expect-error exposePage wraps a screen that takes the heading's id, not any component
  exposePage(NeedsATitle),
  ((Screen: ComponentType<{ headingId: string }>) => exposePage(Screen))(StatsScreen),
];

// A remote's list of exposed modules (its src/expose/exposes.ts) refuses a module that breaks the contract.
export type ExposedModulesContract = [
  ExposedModules<{ './StatsPage': { default: ReturnType<typeof exposePage> } }>,
  ExposedModules<{ './StatsPage': { default: typeof TakesOptionalProps }; './OtherPage': { default: ExposedPage; extra: string } }>,
  // @ts-expect-error an exposed module without a default export
  ExposedModules<{ './StatsPage': { StatsPage: ExposedPage } }>,
  // @ts-expect-error an exposed module whose page requires a prop
  ExposedModules<{ './StatsPage': { default: typeof NeedsATitle } }>,
];
