import { open, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { ConfigurationError } from '../../../errors';

/** fs-native-extensions' locking: an OFD lock (fcntl F_OFD_SETLK) on Linux, flock on macOS, LockFileEx on Windows. */
interface NativeLocks {
  tryLock(fd: number, options?: { shared?: boolean }): boolean;
}

/** Who holds a data file: written into the lock file by the holder, read by whoever is refused. */
interface Holder {
  pid: number;
  host: string;
  since: string;
  command: string;
}

/**
 * The exclusive lock a durable memory engine holds on its data file for its whole life: a second process (a second
 * terminal, a cluster worker, a rolling deploy's new instance) cannot open the same file for writing. The lock is
 * the operating system's, taken on `<file>.lock`, so it is released when the process ends in any way, kill -9
 * included: no stale lock to clean up by hand. The lock file also says who holds it, for the refusal's message.
 */
export class FileLock {
  private constructor(private readonly handle: FileHandle) {}

  /**
   * Takes the lock or throws `CR_DATA_FILE_LOCKED` naming the file and the process holding it.
   *
   * @example
   * const lock = await FileLock.take('./data/content.db'); // ... await lock.release();
   */
  static async take(file: string): Promise<FileLock> {
    const path = `${file}.lock`;
    const handle = await open(path, 'a+');
    let locked: boolean;
    try {
      locked = nativeLocks().tryLock(handle.fd);
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (!locked) {
      const holder = await readHolder(handle);
      await handle.close();
      throw new ConfigurationError(
        'CR_DATA_FILE_LOCKED',
        `memoryEngine: ${file} is in use by ${describe(holder)}. The embedded engine has one writer per data file: ` +
          'stop that process first, or give this one its own file (several instances need mongoEngine(): see docs/production.md).',
      );
    }
    const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command: process.argv.slice(1).join(' ').slice(0, 300) };
    await handle.truncate(0);
    await handle.write(`${JSON.stringify(holder)}\n`, 0);
    return new FileLock(handle);
  }

  /** Releases the lock (closing the file releases it; the holder's line stays, harmless). */
  async release(): Promise<void> {
    await this.handle.close();
  }
}

function nativeLocks(): NativeLocks {
  // A native addon shipped with prebuilt binaries (no compiler at install), loaded on first use only.
  return require('fs-native-extensions') as NativeLocks;
}

async function readHolder(handle: FileHandle): Promise<Partial<Holder>> {
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    return JSON.parse(buffer.subarray(0, bytesRead).toString('utf8')) as Partial<Holder>;
  } catch {
    return {};
  }
}

function describe(holder: Partial<Holder>): string {
  if (typeof holder.pid !== 'number') return 'another process';
  const where = holder.host && holder.host !== hostname() ? ` on ${holder.host}` : '';
  return `process ${holder.pid}${where} (since ${holder.since ?? '?'}: ${holder.command ?? '?'})`;
}
