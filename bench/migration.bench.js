// npm run bench:migration — the time of migration 1795640000000-OutboundLegsAndClaims (issue 18) on
// a database holding BENCH_ROWS (default 100,000) outbound_transfers rows of the old schema: a
// realistic mix (completed sweeps and refunds with one attempt each, their gas top-ups, and a share
// of open transfers in every state), then its `down` on the same rows. Uses the built migrations
// (`dist/`), a fresh database, and prints one line per figure with the load average: a figure
// taken on a busy machine is an upper bound, not a final number.
require('reflect-metadata');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');

const ROOT = path.join(__dirname, '..');
const { createDataSource } = require(path.join(ROOT, 'dist', 'libs', 'db', 'src'));
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);

const say = (line) => process.stderr.write(`[bench] ${line}\n`);
const fmt = (n) => Number(n).toLocaleString('en-US');
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(', ');

async function admin(sql) {
  const c = new Client({ connectionString: `${PG}/postgres` });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

// A signed legacy transaction's size: what outbound_attempts.raw_tx holds for a plain transfer.
const RAW = `'0x' || repeat('ab', 110)`;

async function seed(ds) {
  const q = (sql) => ds.query(sql);
  // Every 5th row is the gas top-up of the row before it (a token sweep); of the others, 4 in 10 are
  // open (planned, signed, submitted, mined: a pessimistic backlog), the rest completed.
  await q(`
    INSERT INTO outbound_transfers (id, chain, network, purpose, purpose_id, parent_id, from_key_kind, from_key_index,
      from_address, to_address, token_address, amount_mode, amount_atomic, state, nonce, gas_limit, fee_type, gas_price,
      tx_hash, block_number, confirmations, gas_used, effective_gas_price, fee_atomic, created_at, updated_at,
      submitted_at, mined_at, finished_at)
    SELECT md5('t' || g)::uuid, 'bnb', 'mainnet',
      CASE WHEN g % 10 = 3 THEN 'refund' ELSE 'sweep' END, gen_random_uuid(), NULL,
      'deposit', g, '0x' || lpad(to_hex(g), 40, '0'), '0x' || lpad(to_hex(g + 1000000000), 40, '0'),
      CASE WHEN g % 5 = 4 THEN '0x' || repeat('cd', 20) ELSE NULL END,
      CASE WHEN g % 10 = 3 THEN 'exact' ELSE 'all' END,
      CASE WHEN g % 10 = 3 OR g % 10 <> 7 THEN 1000000000000000000 + g ELSE NULL END,
      (ARRAY['planned', 'signed', 'submitted', 'mined', 'completed', 'completed', 'completed', 'completed',
             'completed', 'completed'])[1 + (g / 5) % 10],
      CASE WHEN (g / 5) % 10 = 0 THEN NULL ELSE 0 END,
      CASE WHEN (g / 5) % 10 = 0 THEN NULL ELSE 21000 END,
      CASE WHEN (g / 5) % 10 = 0 THEN NULL ELSE 'legacy' END,
      CASE WHEN (g / 5) % 10 = 0 THEN NULL ELSE 3000000000 END,
      CASE WHEN (g / 5) % 10 >= 3 THEN '0x' || md5('h' || g) || md5('i' || g) ELSE NULL END,
      CASE WHEN (g / 5) % 10 >= 3 THEN g ELSE NULL END,
      CASE WHEN (g / 5) % 10 >= 3 THEN 3 ELSE NULL END,
      CASE WHEN (g / 5) % 10 >= 3 THEN 21000 ELSE NULL END,
      CASE WHEN (g / 5) % 10 >= 3 THEN 3000000000 ELSE NULL END,
      CASE WHEN (g / 5) % 10 >= 3 THEN 63000000000000 ELSE NULL END,
      now(), now(), now(), now(), CASE WHEN (g / 5) % 10 >= 4 THEN now() ELSE NULL END
    FROM generate_series(1, ${ROWS}) g WHERE g % 5 <> 0`);
  await q(`
    INSERT INTO outbound_transfers (id, chain, network, purpose, purpose_id, parent_id, from_key_kind, from_key_index,
      from_address, to_address, token_address, amount_mode, amount_atomic, state, nonce, gas_limit, fee_type, gas_price,
      tx_hash, block_number, confirmations, gas_used, effective_gas_price, fee_atomic, created_at, updated_at,
      submitted_at, mined_at, finished_at)
    SELECT md5('t' || g)::uuid, 'bnb', 'mainnet', 'gas_topup', p.purpose_id, p.id, 'gas_tank', 0,
      '0x' || repeat('ee', 20), p.from_address, NULL, 'exact', 63000000000000, 'completed', g, 21000, 'legacy',
      3000000000, '0x' || md5('h' || g) || md5('i' || g), g, 3, 21000, 3000000000, 63000000000000,
      now(), now(), now(), now(), now()
    FROM generate_series(1, ${ROWS}) g JOIN outbound_transfers p ON p.id = md5('t' || (g - 1))::uuid
    WHERE g % 5 = 0`);
  await q(`
    INSERT INTO outbound_attempts (transfer_id, attempt, tx_hash, raw_tx, nonce, gas_limit, fee_type, gas_price,
      value_atomic, amount_atomic, signed_at, broadcast_at, broadcast_block, last_broadcast_at)
    SELECT t.id, 1, COALESCE(t.tx_hash, '0x' || md5('h' || t.id) || md5('i' || t.id)), ${RAW}, t.nonce, t.gas_limit,
      t.fee_type, t.gas_price, COALESCE(t.amount_atomic, 1), COALESCE(t.amount_atomic, 1), now(),
      CASE WHEN t.state = 'signed' THEN NULL ELSE now() END, 1, now()
    FROM outbound_transfers t WHERE t.nonce IS NOT NULL`);
  await q(`
    INSERT INTO evm_nonces (chain, network, address, next_nonce, updated_at)
    SELECT DISTINCT ON (from_address) chain, network, from_address, 1, now() FROM outbound_transfers
    WHERE nonce IS NOT NULL`);
  return (
    await q(
      'SELECT (SELECT count(*) FROM outbound_transfers)::int AS t, (SELECT count(*) FROM outbound_attempts)::int AS a',
    )
  )[0];
}

async function main() {
  const name = `svc_bench_migration_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE "${name}"`);
  const ds = createDataSource(`${PG}/${name}`, 2);
  try {
    await ds.initialize();
    await ds.runMigrations({ transaction: 'all' });
    const last = ds.migrations[ds.migrations.length - 1].name;
    if (last !== 'OutboundLegsAndClaims1795640000000') throw new Error(`the last migration is ${last}`);
    await ds.undoLastMigration({ transaction: 'all' });
    say(`seeding ${fmt(ROWS)} outbound_transfers rows of the old schema`);
    const counts = await seed(ds);
    say(`${fmt(counts.t)} transfers, ${fmt(counts.a)} attempts`);
    await ds.query('ANALYZE');
    let started = performance.now();
    await ds.runMigrations({ transaction: 'all' });
    const up = performance.now() - started;
    const moved = (
      await ds.query(
        `SELECT (SELECT count(*) FROM outbound_transactions)::int AS t, (SELECT count(*) FROM outbound_legs)::int AS l,
                (SELECT count(*) FROM outbound_attempts)::int AS a, (SELECT count(*) FROM outbound_claims)::int AS c`,
      )
    )[0];
    if (moved.t !== counts.t || moved.l !== counts.t || moved.a !== counts.a) {
      throw new Error(`rows lost: ${JSON.stringify({ counts, moved })}`);
    }
    say(`up: ${fmt(moved.t)} transactions, ${fmt(moved.l)} legs, ${fmt(moved.a)} attempts, ${fmt(moved.c)} claims`);
    console.log(
      `migration up on ${fmt(counts.t)} outbound_transfers rows: ${(up / 1000).toFixed(2)} s (load ${load()})`,
    );
    started = performance.now();
    await ds.undoLastMigration({ transaction: 'all' });
    console.log(
      `migration down on the same rows: ${((performance.now() - started) / 1000).toFixed(2)} s (load ${load()})`,
    );
  } finally {
    await ds.destroy();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
