import sharp from 'sharp';

/** sharp's process-wide settings the media library applies (Strapi's `upload.sharp` option and defaults). */
export interface SharpSettings {
  /** libvips' operation cache: off by default (it would keep decoded images, and deleted temporary files, open). */
  cache?: boolean;
  /** Threads libvips uses per image: 1 by default, so one upload takes one core and the API keeps the others. */
  concurrency?: number;
}

/**
 * Applies `settings` to sharp, process-wide (sharp has no per-instance cache or thread setting), as Strapi's
 * upload plugin does at start-up. `false` leaves sharp as the host app configured it.
 *
 * @example configureSharp({ cache: false, concurrency: 1 });
 */
export function configureSharp(settings: SharpSettings | false | undefined): void {
  if (settings === false) return;
  sharp.cache(settings?.cache ?? false);
  sharp.concurrency(settings?.concurrency ?? 1);
}

/**
 * A first-in first-out gate of `size` slots: `run(fn)` waits for a free slot, then runs `fn`. The media service
 * decodes one image at a time through it, so concurrent upload requests queue instead of each holding a decoded
 * image in memory (and the libuv threads sharp runs on stay free for file I/O).
 *
 * @example const slots = createSlots(1); await slots.run(() => processImage(...));
 */
export function createSlots(size: number): { run<T>(fn: () => Promise<T>): Promise<T> } {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
  return {
    async run<T>(fn: () => Promise<T>): Promise<T> {
      if (busy < size) busy++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
