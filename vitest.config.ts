import { defineConfig } from 'vitest/config';
import { TEST_TEMP_FOLDER } from './test/support/testTempFolder.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores on every machine, CI's included.
    maxWorkers: 2,
    // One module graph a worker, not one a file: import time halved (lane F measured 199 -> 150 s
    // of CPU over 81 files). Tests change no globals, environment or timers, and src's
    // module-level caches only memoise, so nothing leaks from file to file.
    isolate: false,
    reporters: ['default', './test/support/plainSummaryReporter.ts'],
    // Temporary files of tests and of the CLI runs they spawn go to one folder, removed at the end.
    env: { TMPDIR: TEST_TEMP_FOLDER },
    globalSetup: ['./test/support/testTempFolder.ts'],
  },
});
