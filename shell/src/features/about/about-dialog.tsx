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
 * "About Task Manager" (docs/PRODUCT.md §2): the shell's build and each remote's name, version, build id
 * and manifest URL, so a team can see in production which builds a page runs (version skew). A modal
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
    </ModalDialog>
  );
}
