import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores on every machine, CI's included.
    maxWorkers: 2,
    reporters: ['default', './test/support/plainSummaryReporter.ts'],
  },
});
