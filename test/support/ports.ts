import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's range for outgoing connections' local ports (Linux), else IANA's. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low > 0 && high >= low) return [low, high];
  } catch {
    // not Linux
  }
  return [49152, 65535];
}

/** The first port the kernel may give an outgoing connection; it does not change during a run. */
const EPHEMERAL_LOW = ephemeralRange()[0];

/** Where the ports are drawn from, up to the ephemeral range: above the usual services' own. */
const FLOOR = 20000;

/** A port the kernel picks (`listen(0)`), where no range below the ephemeral one is left. */
function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port nothing listens on right now, for a server a test starts in another process (Redis,
 * PostgreSQL, the API). It is below the kernel's ephemeral range: a port that `listen(0)` hands
 * out is one the kernel also gives outgoing connections, and the many connections of a test run
 * can take it before the server binds it, or between a server's stop and its restart.
 */
export async function freePort(): Promise<number> {
  const top = EPHEMERAL_LOW - 1;
  if (top < FLOOR + 1000) return anyPort();
  for (;;) {
    const port = FLOOR + Math.floor(Math.random() * (top - FLOOR));
    if (await canListen(port)) return port;
  }
}
