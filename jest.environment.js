// The test environment of both Jest projects: Node's, plus one rule. pg prints "Calling client.query()
// when the client is already executing a query is deprecated" when code sends a query on a client
// that is still busy (Promise.all over one transaction's EntityManager): pg 9 throws there, and a
// transaction's statements would interleave. Node emits that warning on the real `process`, which
// a test file cannot listen to (its `process` is the sandbox's), so the environment does, and
// fails the test (or the file, when a hook sent it) with the warning's stack (issue 20 › 3).
'use strict';
const { TestEnvironment } = require('jest-environment-node');

const OVERLAP = 'Calling client.query() when the client is already executing a query';

class FailOnPgOverlapEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.overlaps = [];
    this.onWarning = (warning) => {
      if (String(warning && warning.message).includes(OVERLAP)) this.overlaps.push(warning);
    };
  }

  async setup() {
    await super.setup();
    process.on('warning', this.onWarning);
  }

  async teardown() {
    process.off('warning', this.onWarning);
    await super.teardown();
  }

  async handleTestEvent(event, state) {
    if (event.name !== 'test_done' && event.name !== 'run_finish') return;
    // the warning is emitted on the next tick: let it arrive, so a test's last query counts
    await new Promise((resolve) => setImmediate(resolve));
    if (!this.overlaps.length) return;
    if (event.name === 'test_done') event.test.errors.push(...this.take());
    else state.unhandledErrors.push(...this.take());
  }

  take() {
    const errors = this.overlaps.map((w) => {
      const error = new Error(`pg: two queries at once on one client (pg 9 throws here): ${w.message}`);
      error.stack = `${error.message}\n${String(w.stack).split('\n').slice(1).join('\n')}`;
      return error;
    });
    this.overlaps = [];
    return errors;
  }
}

module.exports = FailOnPgOverlapEnvironment;
