#!/usr/bin/env node
// `npm run start:listener|worker|pay`: these processes arrive with later issues. The scripts
// exist now so deployments can already name them (runtime contract › Commands); until then they
// say so and exit 0.
const name = process.argv[2] || 'this process';
process.stderr.write(`svc ${name}: not part of this build yet; it arrives with a later issue. Nothing to run.\n`);
