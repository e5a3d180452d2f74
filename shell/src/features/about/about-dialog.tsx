import { ModalDialog } from '@tm/web-platform';
import { useId } from 'react';
import { SHELL_BUILD } from './shell-build';
import './about-dialog.css';

/** One remote as the About dialog lists it. */
export interface AboutRemote {
  /** Its federation name (`mfe_tasks`). */
  name: string;
  version?: string;
  buildId?: string;
  manifest: string;
  /** One of its pages was loaded on this page. */
  loaded: boolean;
}

interface AboutDialogProps {
  /** The remotes of the catalog, read when the dialog opens. */
  remotes: readonly AboutRemote[];
  onClose: () => void;
}

function Row({ term, value }: { term: string; value: string }) {
  return (
    <div className="about-dialog__row">
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * "About Task Manager" (docs/PRODUCT.md §2). Plain words first (it spoke only in build jargon):
 * what the app is, its version, and what to do when something looks wrong. Below, folded away under
 * "Technical details", what teams read to see which builds a page runs (version skew): the shell's build
 * and each remote's name, version, build id, manifest URL and whether it was loaded on this page. A modal
 * <dialog> opened as it mounts: the browser keeps the focus inside; Escape or "Close" closes it and the
 * focus goes back to where it was. Loaded on demand: it costs the first load nothing.
 */
export default function AboutDialog({ remotes, onClose }: AboutDialogProps) {
  const titleId = useId();
  return (
    <ModalDialog className="about-dialog" labelledBy={titleId} onClose={onClose} closeButtonClassName="button about-dialog__close">
      <h2 id={titleId} className="about-dialog__title">
        About Task Manager
      </h2>
      <p className="about-dialog__plain">A simple to-do list that stays the same on every device you sign in on.</p>
      <p className="about-dialog__plain">
        You are using version <strong>{SHELL_BUILD.version}</strong>. If something looks out of date or wrong, reload the page to get the newest version.
      </p>
      <details className="about-dialog__details">
        <summary>Technical details</summary>
        <p className="about-dialog__hint">For support and the teams who build the app: which build of each part this page runs.</p>
        <section className="about-dialog__part" aria-label="Shell">
          <h3 className="about-dialog__name">Shell</h3>
          <dl className="about-dialog__list">
            <Row term="Version" value={SHELL_BUILD.version} />
            <Row term="Build" value={SHELL_BUILD.buildId} />
          </dl>
        </section>
        {remotes.map((remote) => (
          <section key={remote.name} className="about-dialog__part" aria-label={remote.name}>
            <h3 className="about-dialog__name">
              {remote.name}{' '}
              <span className={remote.loaded ? 'about-dialog__badge about-dialog__badge--loaded' : 'about-dialog__badge'}>
                {remote.loaded ? 'Loaded' : 'Not loaded'}
              </span>
            </h3>
            <dl className="about-dialog__list">
              <Row term="Version" value={remote.version ?? 'unknown'} />
              <Row term="Build" value={remote.buildId ?? 'unknown'} />
              <Row term="Manifest" value={remote.manifest} />
            </dl>
          </section>
        ))}
      </details>
    </ModalDialog>
  );
}
