import { defineConfig } from "@playwright/test";

// Browser tests against a production build (`next build` + `next start`) on a fresh PostgreSQL
// database; tests/e2e/global-setup.ts prepares both. Uses Debian's Chromium: never run
// `playwright install` (no download host is reachable from CI).

const port = Number(process.env.E2E_PORT ?? 3210);

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: "test-results/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  // One server, one database, 2-core machines: one worker, tests in file order.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    headless: true,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Playwright adds --headless, --no-sandbox and a fresh --user-data-dir itself. Without the
      // background-networking flags Chromium floods the closed network with refused connections.
      args: [
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
