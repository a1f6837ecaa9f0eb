/** A one-line progress bar on stderr when it is a terminal; silent otherwise (logs, CI). */
export class Progress {
  private total = 0;
  private n = 0;
  constructor(
    private readonly label: string,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {}

  start(total: number): void {
    this.total = total;
    this.n = 0;
  }

  tick(detail: string): void {
    this.n += 1;
    if (!this.out.isTTY) return;
    const width = 24;
    const filled = this.total ? Math.round((this.n / this.total) * width) : width;
    this.out.write(
      `\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.n}/${this.total} ${detail}\x1b[K`,
    );
  }

  done(): void {
    if (this.out.isTTY) this.out.write('\n');
  }
}
