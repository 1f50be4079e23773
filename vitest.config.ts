import { defineConfig } from "vitest/config"

// Test files live beside nothing else: everything under test/ ending in .test.ts.
// Forked workers keep each file's heap and globals isolated (the VM tests allocate a lot),
// and the generous timeout covers the Postgres-backed service suites on a loaded machine.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // DATABASE_URL for the service tests: the caller's server, or a private one started for this run.
    globalSetup: ["test/setup/postgres.ts"],
    // The sandbox's time zone is UTC; the V8 oracle must agree for local-time Date programs.
    env: { TZ: "UTC" },
  },
})
