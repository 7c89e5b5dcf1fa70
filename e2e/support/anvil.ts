// The devnet for e2e files: the same code `npm run dev` and the bench use (libs/devnet), with a
// temporary directory for the chains file. Auto-mining: every transaction makes one block, and
// `node.mine(n)` adds the confirmations, so no test waits for block times.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DevChainSpec, Devnet, startDevnet } from '@svc/devnet';

export * from '@svc/devnet';

export interface TestDevnet extends Devnet {
  dir: string;
}

export async function startTestDevnet(
  options: { chains?: DevChainSpec[]; blockTimeSeconds?: number } = {},
): Promise<TestDevnet> {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-devnet-'));
  const devnet = await startDevnet({ dir, ...options });
  return {
    ...devnet,
    dir,
    get: devnet.get,
    async stop() {
      await devnet.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
