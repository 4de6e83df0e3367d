/**
 * A one-line progress bar on a TTY stream (stderr, so stdout stays one JSON object); nothing at
 * all when the stream is not a terminal.
 */
export class ProgressBar {
  private lastDraw = 0;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly width = 30,
  ) {}

  get enabled(): boolean {
    return Boolean(this.stream.isTTY);
  }

  update(label: string, done: number, total: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (done < total && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const ratio = total > 0 ? Math.min(done / total, 1) : 1;
    const filled = Math.round(ratio * this.width);
    const bar = '#'.repeat(filled) + '-'.repeat(this.width - filled);
    this.stream.write(
      `\r${label.padEnd(10)} [${bar}] ${(ratio * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')}`,
    );
    if (done >= total) this.stream.write('\n');
  }
}
