import { act, render, screen, waitFor } from '@testing-library/react';
import { AnimatePresence } from 'framer-motion';
import { useRef } from 'react';
import { stubAnimations } from '../../../test/browser-stubs';
import { MOTION } from '../constants';
import { useRowMotion, useStillListed } from './use-row-motion';

// A row's exit (docs/PRODUCT.md §9) when its task comes back before the exit is over, and goes again: in a
// list of thousands, rows leave and re-enter the window while it is measured, and a task can come back (Undo,
// another device). A row back in the list is present again, and a row that leaves again goes.

function Row({ id }: { id: string }) {
  const row = useRef<HTMLLIElement>(null);
  const { isPresent } = useRowMotion(row, id, null);
  return (
    <li ref={row} inert={!isPresent}>
      {id}
    </li>
  );
}

function Rows({ ids }: { ids: string[] }) {
  const stillListed = useStillListed(ids);
  return (
    <ul>
      <AnimatePresence custom={stillListed}>
        {ids.map((id) => (
          <Row key={id} id={id} />
        ))}
      </AnimatePresence>
    </ul>
  );
}

describe('a row whose task comes back while it leaves', () => {
  let animations: ReturnType<typeof stubAnimations>;
  beforeEach(() => {
    animations = stubAnimations();
  });
  afterEach(() => animations.restore());

  it('is present again, its exit undone, and goes when its task leaves once more', async () => {
    const { rerender } = render(<Rows ids={['a', 'b']} />);
    const row = screen.getByText('b');

    rerender(<Rows ids={['a']} />);
    await waitFor(() => expect(row).toHaveAttribute('inert'));
    const firstExit = animations.played.at(-1);
    expect(firstExit?.element).toBe(row);

    rerender(<Rows ids={['a', 'b']} />);
    await waitFor(() => expect(row).not.toHaveAttribute('inert'));
    expect(firstExit?.animation.playState).toBe('idle'); // cancelled: the row shows as it did
    await act(() => new Promise((resolve) => setTimeout(resolve, MOTION.exitSeconds * 1000 + 100)));
    expect(screen.getByText('b')).toBe(row);

    rerender(<Rows ids={['a']} />);
    await waitFor(() => expect(row).toHaveAttribute('inert'));
    expect(animations.played.at(-1)?.element).toBe(row);
    await waitFor(() => expect(screen.queryByText('b')).not.toBeInTheDocument(), { timeout: MOTION.exitSeconds * 1000 + 1000 });
    expect(screen.getByText('a')).not.toHaveAttribute('inert');
  });
});
