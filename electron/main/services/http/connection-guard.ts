import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What one of the app's HTTP servers holds open, so a flood of idle connections cannot starve the real clients. */
export interface ConnectionLimits {
  /** Open connections at most; past it the oldest one not yet admitted is closed to make room. */
  maxConnections: number;
  /**
   * How long a connection may take to send its first request's headers. Node's own `headersTimeout` is left at its
   * default: shortened (with a short check interval) it also ended keep-alive connections whose response was still
   * streaming, so a chat reply longer than it was cut off.
   */
  headersTimeoutMs: number;
}

export const CONNECTION_LIMITS: ConnectionLimits = { maxConnections: 256, headersTimeoutMs: 10_000 };

/**
 * Caps a server's open connections and closes those that send no request in time. A connection is "waiting" until
 * the server admits it (a request that carried the key or secret, or the page itself): when a new connection passes
 * the cap, the oldest waiting one is closed, so half-open requests without a key never keep a real client out.
 */
export class ConnectionGuard {
  private readonly open = new Set<Socket>();
  /** Not admitted yet, oldest first (a Set keeps insertion order). */
  private readonly waiting = new Set<Socket>();
  private readonly firstRequest = new Map<Socket, NodeJS.Timeout>();

  constructor(
    server: Server,
    private readonly limits: ConnectionLimits,
  ) {
    server.on('connection', (s: Socket) => this.opened(s));
    // The first request's headers arrived: later ones are timed by Node's headersTimeout.
    server.on('request', (req: { socket: Socket }) => this.clearTimer(req.socket));
  }

  /** Connections open now (for tests and the stop). */
  get size(): number {
    return this.open.size;
  }

  sockets(): Iterable<Socket> {
    return this.open;
  }

  /** This connection sent a request the server trusts: it is no longer the first to go at the cap. */
  admit(s: Socket): void {
    this.waiting.delete(s);
  }

  private opened(s: Socket): void {
    this.open.add(s);
    this.waiting.add(s);
    // Node's headersTimeout does not cover a connection that sends nothing at all.
    const timer = setTimeout(() => this.drop(s), this.limits.headersTimeoutMs);
    timer.unref();
    this.firstRequest.set(s, timer);
    s.once('close', () => this.forget(s));
    if (this.open.size <= this.limits.maxConnections) return;
    // The oldest waiting connection (this one when all the others are admitted).
    const oldest = this.waiting.values().next().value as Socket;
    this.drop(oldest);
  }

  private clearTimer(s: Socket): void {
    clearTimeout(this.firstRequest.get(s));
    this.firstRequest.delete(s);
  }

  /** Forgotten at once rather than on its close event, so a burst does not count closing sockets against the cap. */
  private drop(s: Socket): void {
    this.forget(s);
    s.destroy();
  }

  private forget(s: Socket): void {
    this.clearTimer(s);
    this.open.delete(s);
    this.waiting.delete(s);
  }
}
