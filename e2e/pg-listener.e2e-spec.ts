// libs/runtime › PgListener, what the outbox relay and the signer are woken by: a notification
// arrives with its payload, and a connection killed from outside is noticed and listened again.
import { Client } from 'pg';
import { PgListener } from '@svc/runtime';

const URL = process.env.DATABASE_URL_ADMIN ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHANNEL = `svc_pg_listener_${process.pid}`;

async function until(what: string, probe: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('notifications arrive; a killed connection is reported, listened again, and notifications arrive again', async () => {
  const payloads: Array<string | undefined> = [];
  const lost: string[] = [];
  let listening = 0;
  const listener = new PgListener({
    databaseUrl: URL,
    channel: CHANNEL,
    reconnectMs: 50,
    onNotify: (p) => payloads.push(p),
    onListening: () => listening++,
    onLost: (why) => lost.push(why),
  });
  const admin = new Client({ connectionString: URL });
  await admin.connect();
  try {
    await listener.start();
    expect(listening).toBe(1);
    await admin.query(`SELECT pg_notify($1, 'bnb/mainnet')`, [CHANNEL]);
    await until('the first notification', () => payloads.length === 1);
    expect(payloads).toEqual(['bnb/mainnet']);

    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()`,
      [`LISTEN ${CHANNEL}`],
    );
    await until('the loss to be reported and the channel listened again', () => lost.length >= 1 && listening === 2);
    await admin.query(`SELECT pg_notify($1, 'sui/mainnet')`, [CHANNEL]);
    await until('the notification after the reconnect', () => payloads.length === 2);
    expect(payloads).toEqual(['bnb/mainnet', 'sui/mainnet']);
  } finally {
    await listener.stop();
    await admin.end();
  }
});
