// Two projects: unit specs beside the code, e2e specs under e2e/ (real PostgreSQL, one fresh
// database per file; see e2e/support/test-app.ts). Both run in jest.environment.js: Node's
// environment, failing a test whose code sends two queries at once on one pg client.
const swc = ['@swc/jest', JSON.parse(require('fs').readFileSync(__dirname + '/.swcrc', 'utf8'))];
const moduleNameMapper = {
  // tsconfig.json paths: @svc/migrations is the migrations folder, every other @svc/<name> is libs/<name>/src.
  '^@svc/migrations$': '<rootDir>/migrations',
  // apps/pay's one import from libs/chains: the wallet links, which import nothing (browser-safe)
  '^@svc/chains/wallet-links$': '<rootDir>/libs/chains/src/wallet-links',
  '^@svc/([a-z-]+)$': '<rootDir>/libs/$1/src',
};
module.exports = {
  testTimeout: 60000,
  // fails a run that a forgotten server or child would keep alive (jest.teardown.js)
  globalTeardown: '<rootDir>/jest.teardown.js',
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/migrations/**/*.spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '/apps/pay/\\.next'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
      testEnvironment: '<rootDir>/jest.environment.js',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': swc },
      moduleNameMapper,
      testEnvironment: '<rootDir>/jest.environment.js',
    },
  ],
};
