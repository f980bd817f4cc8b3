import type { ChatFigures } from '@shared/contract/chat-message';
import { partialFigures } from './figures';
import type { TurnSink } from './types';

/** Text added since the last delta left. */
export interface TextDelta {
  content: string;
  thinking: string;
}

/**
 * A turn's text as it streams, for the chat's reply and Compare's answers: kept whole, and handed on as one delta per
 * socket read — the parts a read holds (hundreds in a burst) leave together once it is parsed (setImmediate), instead
 * of one event each for the router, the transport and the renderer to handle; a token arriving alone leaves at once.
 * It also counts the parts and times the first, for the figures of a turn that ends before the server's own came.
 */
export class StreamedText implements TurnSink {
  content = '';
  thinking = '';
  private delta?: TextDelta;
  private timer?: ReturnType<typeof setImmediate>;
  private readonly startedAt = performance.now();
  private firstAt?: number;
  private parts = 0;

  constructor(private readonly send: (delta: TextDelta) => void) {}

  get started(): boolean {
    return this.content.length > 0 || this.thinking.length > 0;
  }

  add(content: string | undefined, thinking: string | undefined, tokens = 1): void {
    if (!content && !thinking) return;
    this.firstAt ??= performance.now();
    this.parts += tokens;
    const d = (this.delta ??= { content: '', thinking: '' });
    if (content) {
      this.content += content;
      d.content += content;
    }
    if (thinking) {
      this.thinking += thinking;
      d.thinking += thinking;
    }
    this.timer ??= setImmediate(() => this.flush());
  }

  /** Sends the delta not sent yet, now. */
  flush(): void {
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    const d = this.delta;
    if (!d) return;
    this.delta = undefined;
    this.send(d);
  }

  /** Forgets the delta not sent yet (a Stop cuts the text back to what the page showed). */
  protected dropPending(): void {
    this.delta = undefined;
  }

  /** What was measured of the stream so far, for a turn that ends before the server's own figures came. */
  measured(): ChatFigures | undefined {
    return partialFigures(this.parts, { started: this.startedAt, firstToken: this.firstAt, end: performance.now() });
  }
}
