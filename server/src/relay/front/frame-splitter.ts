/**
 * Splits what the pipeline writes to a front's sink, `data: …\n\n` frames and `:` keep-alive comments
 * cut anywhere, into whole frames: each front's sink re-frames them in its client's format.
 */
export class FrameSplitter {
  #pending = '';

  /** Calls `onData` with each whole frame's data and `onComment` with each whole comment frame. */
  push(text: string, onData: (data: string) => void, onComment: (comment: string) => void): void {
    this.#pending += text;
    let boundary = this.#pending.indexOf('\n\n');
    while (boundary !== -1) {
      const frame = this.#pending.slice(0, boundary);
      this.#pending = this.#pending.slice(boundary + 2);
      if (frame.startsWith('data: ')) onData(frame.slice(6));
      else if (frame.startsWith(':')) onComment(frame);
      boundary = this.#pending.indexOf('\n\n');
    }
  }
}
