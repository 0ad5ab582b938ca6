/** Where an import or export stands: the stage, the items done in it, the bytes of files moved. */
export interface TransferProgressEvent {
  readonly stage: string;
  readonly count: number;
  readonly bytes: number;
  /** true on the last event of a stage. */
  readonly done: boolean;
}

export type OnTransferProgress = (event: TransferProgressEvent) => void;

/** Counts items per stage and reports at most every `everyMs` (and at each stage's end). */
export class TransferProgress {
  private stage = '';
  private count = 0;
  private bytes = 0;
  private last = 0;

  constructor(private readonly onProgress?: OnTransferProgress, private readonly everyMs = 200) {}

  tick(stage: string, bytes: number): void {
    if (stage !== this.stage) this.end();
    this.stage = stage;
    this.count++;
    this.bytes += bytes;
    const now = Date.now();
    if (this.onProgress && now - this.last >= this.everyMs) {
      this.last = now;
      this.onProgress({ stage, count: this.count, bytes: this.bytes, done: false });
    }
  }

  /** Reports the end of the current stage (when it counted anything). */
  end(): void {
    if (this.stage && this.count > 0) this.onProgress?.({ stage: this.stage, count: this.count, bytes: this.bytes, done: true });
    this.stage = '';
    this.count = 0;
    this.bytes = 0;
  }
}
