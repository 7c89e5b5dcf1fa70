// docker/compose.yml, read as Compose reads it (YAML with anchors and merge keys): every process
// of the service from one image, in production mode, the seed only as a secret file and only for
// the two processes that derive keys, a health check on each long-running container that probes
// the port that container's process serves, and commands that exist. Docker is not needed to run it.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..');
type Service = {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  secrets?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
};
const compose = parse(readFileSync(path.join(ROOT, 'docker/compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  secrets: Record<string, { file: string }>;
};
const scripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
const PROCESSES = ['api', 'listener', 'worker', 'payouts', 'signer', 'pay'];
const PORT_OF: Record<string, string> = {
  api: 'PORT',
  listener: 'LISTENER_PORT',
  worker: 'WORKER_PORT',
  payouts: 'PAYOUTS_PORT',
  signer: 'SIGNER_PORT',
  pay: 'PAY_PORT',
};

test('every process, and the migration, from one image built from the repository', () => {
  const ours = ['migrate', ...PROCESSES].map((n) => compose.services[n]);
  for (const s of ours) {
    expect(s.image).toBe('svc:local');
    expect(s.build).toEqual({ context: '..', dockerfile: 'docker/Dockerfile' });
  }
  expect(compose.services.migrate.command).toEqual(['node', 'dist/apps/cli/src/main.js', 'migrate']);
  for (const name of PROCESSES) {
    const s = compose.services[name];
    expect(s.command).toEqual(['npm', 'run', `start:${name}`]);
    expect(scripts[`start:${name}`]).toBeDefined();
    expect(s.depends_on?.migrate ?? compose.services.api.depends_on?.migrate).toEqual({
      condition: 'service_completed_successfully',
    });
  }
});

test('production mode everywhere; the seed is a secret file for the signer only (issue 19 › Keys: the one process that signs), the data key for migrate, the API and the worker, the destination key for the API and the signer', () => {
  for (const name of ['migrate', ...PROCESSES]) {
    const env = compose.services[name].environment ?? {};
    expect([name, env.SVC_ENV]).toEqual([name, 'production']);
    expect(env.SVC_MNEMONIC).toBeUndefined();
    const seeded = name === 'signer';
    expect([name, env.SVC_MNEMONIC_FILE]).toEqual([name, seeded ? '/run/secrets/svc_mnemonic' : undefined]);
    // runtime contract › SVC_DATA_KEY: required in production by whoever reads the secrets at rest
    const keyed = name === 'migrate' || name === 'api' || name === 'worker';
    expect(env.SVC_DATA_KEY).toBeUndefined();
    expect([name, env.SVC_DATA_KEY_FILE]).toEqual([name, keyed ? '/run/secrets/svc_data_key' : undefined]);
    // runtime contract › SVC_DESTINATION_KEY: the API and the signer only
    const macs = name === 'api' || name === 'signer';
    expect(env.SVC_DESTINATION_KEY).toBeUndefined();
    expect([name, env.SVC_DESTINATION_KEY_FILE]).toEqual([name, macs ? '/run/secrets/svc_destination_key' : undefined]);
    const secrets = [
      ...(seeded ? ['svc_mnemonic'] : []),
      ...(keyed ? ['svc_data_key'] : []),
      ...(macs ? ['svc_destination_key'] : []),
    ];
    expect([name, compose.services[name].secrets]).toEqual([name, secrets.length ? secrets : undefined]);
    expect(env.SVC_DEV_CLOCK).toBeUndefined();
  }
  expect(compose.secrets.svc_mnemonic).toEqual({ file: './secrets/mnemonic.txt' });
  expect(compose.secrets.svc_data_key).toEqual({ file: './secrets/data-key.txt' });
  expect(compose.secrets.svc_destination_key).toEqual({ file: './secrets/destination-key.txt' });
  // the seed file is never committed
  expect(readFileSync(path.join(ROOT, 'docker/secrets/.gitignore'), 'utf8')).toMatch(/^\*$/m);
});

test('each long-running container has a health check on the port its process serves', () => {
  for (const name of ['postgres', 'redis', ...PROCESSES]) expect(compose.services[name].healthcheck).toBeDefined();
  for (const name of PROCESSES) {
    const s = compose.services[name];
    const port = s.environment?.[PORT_OF[name]];
    expect([name, port]).toEqual([name, expect.stringMatching(/^\d+$/)]);
    const probe = s.healthcheck!.test.join(' ');
    expect(probe).toContain(`http://127.0.0.1:${port}/`);
    expect(probe).toMatch(/\/healthz'/); // the pay app's too (apps/pay/app/healthz)
  }
});
