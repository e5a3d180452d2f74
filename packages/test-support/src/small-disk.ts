import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, rmdirSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A real, small filesystem (a tmpfs of a few MiB, mounted for the test) that a test can fill to the last
 * byte and free again: what a full data disk does to SQLite, for real (docs/OPERATIONS.md "Full disk").
 */
export interface SmallDisk {
  /** The mount point: use it as DATA_DIR. */
  dir: string;
  /** Free bytes now (statfs: what a write can still use). */
  freeBytes: () => number;
  /** Writes a filler file until at most `leaveBytes` are free (0: until the disk refuses: ENOSPC). */
  fill: (leaveBytes?: number) => void;
  /** Deletes the filler: the space is back. */
  release: () => void;
  /** Unmounts (lazily if something still holds a file open) and removes the mount point; twice is harmless. */
  unmount: () => void;
}

const PAGE = 4096;
const CHUNK = 256 * 1024;
let probed: { reason: string | undefined } | undefined;

function describeFailure(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr?.toString().trim().split('\n')[0];
  return stderr || (error instanceof Error ? error.message : String(error));
}

/**
 * Why this machine cannot mount a small disk for a test (not Linux, not root, or `mount` refused), or
 * undefined when it can. Tried once per test file, synchronously, so a suite can pick `describe` or
 * `describe.skip` when it loads. A suite that cannot mount skips and says why: it never fakes a full disk.
 */
export function smallDiskUnavailableReason(): string | undefined {
  if (probed) return probed.reason;
  let reason: string | undefined;
  if (process.platform !== 'linux') reason = `tmpfs mounts need Linux (this is ${process.platform})`;
  else if (process.getuid?.() !== 0) reason = `mounting a tmpfs needs root (uid ${process.getuid?.()})`;
  else {
    try {
      const disk = mountSmallDisk(64 * 1024, 'tm-disk-probe-');
      disk.unmount();
    } catch (error) {
      reason = `mount -t tmpfs was refused: ${describeFailure(error)}`;
    }
  }
  probed = { reason };
  return reason;
}

/** Mounts a tmpfs of `sizeBytes` (rounded up to whole pages) on a fresh folder under the OS temp dir. */
export function mountSmallDisk(sizeBytes: number, prefix = 'tm-small-disk-'): SmallDisk {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const size = Math.ceil(sizeBytes / PAGE) * PAGE;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmdirSync(dir);
    throw error;
  }
  const filler = path.join(dir, 'filler.bin');
  let mounted = true;
  const freeBytes = () => {
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  };
  return {
    dir,
    freeBytes,
    fill: (leaveBytes = 0) => {
      const fd = openSync(filler, 'a');
      const zeros = Buffer.alloc(CHUNK);
      try {
        for (const chunk of [CHUNK, PAGE]) {
          while (freeBytes() - chunk >= leaveBytes) writeSync(fd, zeros, 0, chunk);
        }
        if (leaveBytes === 0) {
          for (;;) writeSync(fd, zeros, 0, PAGE);
        }
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    release: () => rmSync(filler, { force: true }),
    unmount: () => {
      if (!mounted) return;
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      mounted = false;
      rmdirSync(dir);
    },
  };
}
