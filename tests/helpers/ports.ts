import { createServer } from 'node:net';

/** A loopback port nothing listens on (bound, then released): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((ok) => srv.close(() => ok()));
  return port;
}
