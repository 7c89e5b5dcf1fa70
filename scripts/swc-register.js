// Runs TypeScript sources directly (tests' helpers and dev tooling): compiles each .ts file with
// @swc/core on require, with the repository's .swcrc, and maps the @svc/* path aliases.
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const swc = require('@swc/core');

const root = path.resolve(__dirname, '..');
const options = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename, swcrc: false });
  module._compile(code, filename);
};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = /^@svc\/(domain|chains|db|config|devnet|webhooks|signer)$/.exec(request);
  return resolve.call(this, alias ? path.join(root, 'libs', alias[1], 'src') : request, ...rest);
};
