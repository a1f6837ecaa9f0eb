/** One holder at a time, in no particular order of the waiters (Kysely's own connection mutex does the same). */
export class Mutex {
  #held: Promise<void> | undefined;
  #release: (() => void) | undefined;

  get locked(): boolean {
    return this.#held !== undefined;
  }

  async lock(): Promise<void> {
    while (this.#held) await this.#held;
    this.#held = new Promise<void>((resolve) => {
      this.#release = resolve;
    });
  }

  unlock(): void {
    const release = this.#release;
    this.#held = undefined;
    this.#release = undefined;
    release?.();
  }
}
