import { useState } from 'react';

/**
 * The screen: it renders the page's <h1> with `id={headingId}`, which names the page's region (the contract's
 * PageScreen). Its state runs on the shell's React, shared as a singleton (rspack.config.mjs).
 */
export function ExternalScreen({ headingId }: { headingId: string }) {
  const [visits, setVisits] = useState(0);
  return (
    <>
      <h1 id={headingId}>External</h1>
      <p>Built in a repository of its own, loaded by the shell through the catalog.</p>
      <button type="button" onClick={() => setVisits((count) => count + 1)}>
        Pressed {visits} {visits === 1 ? 'time' : 'times'}
      </button>
    </>
  );
}
