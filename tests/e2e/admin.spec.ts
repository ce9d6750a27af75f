import { readFile } from "node:fs/promises";

import { expect, test, type Page } from "@playwright/test";

import { E2E_USERS } from "./users";

// Settings, alerts and forensics in a real browser: an admin adds a cluster (testing the
// connection to the local broker first), silences an alert, adds a webhook endpoint and downloads
// a forensics report; a viewer is refused the settings page and the webhook API.

const screens = "test-results/screens";
const clusterName = `e2e-admin-${Date.now().toString(36)}`;

async function signIn(page: Page, user: { username: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(/\/$/);
}

test("an admin adds a cluster, a silence and a webhook, and downloads a forensics report", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, E2E_USERS.admin);

  // Settings: a cluster, with the connection tested before it is saved.
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await page.getByRole("button", { name: "Add cluster" }).click();
  const form = page.getByRole("form", { name: "New cluster" });
  await form.getByLabel("Name", { exact: true }).fill(clusterName);
  await form.getByLabel("Bootstrap brokers").fill("127.0.0.1:9092");
  await form.getByRole("button", { name: "Test connection" }).click();
  const result = form.getByTestId("connection-test");
  await expect(result).toContainText("Connection works", { timeout: 15_000 });
  await expect(result.locator('[data-step="metadata"]')).toHaveAttribute("data-status", "ok");
  await expect(result.locator('[data-step="listGroups"]')).toHaveAttribute("data-status", "ok");
  await form.getByRole("button", { name: "Save cluster" }).click();
  await expect(page.getByTestId("cluster-list")).toContainText(clusterName);
  await expect(page.getByTestId("users")).toContainText(E2E_USERS.viewer.username);
  await page.screenshot({ path: `${screens}/settings.png`, fullPage: true });

  // Alerts: a silence and a webhook endpoint, then a test send.
  await page.goto("/alerts");
  await page.getByRole("button", { name: "New silence" }).click();
  const silence = page.getByRole("form", { name: "New silence" });
  await silence.getByLabel("Group glob").fill("orders-*");
  await silence.getByLabel("Comment").fill("e2e maintenance window");
  await silence.getByRole("button", { name: "Create silence" }).click();
  await expect(page.getByTestId("silences")).toContainText("e2e maintenance window");
  await expect(page.getByTestId("silences")).toContainText(E2E_USERS.admin.username);

  const hookName = `e2e hook ${Date.now().toString(36)}`;
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const hook = page.getByRole("form", { name: "New webhook endpoint" });
  await hook.getByLabel("Name", { exact: true }).fill(hookName);
  await hook.getByLabel("URL").fill("http://127.0.0.1:9/hook");
  await hook.getByRole("button", { name: "Save endpoint" }).click();
  const list = page.getByTestId("webhook-list");
  await expect(list).toContainText(hookName);
  await list.getByRole("button", { name: "Send test" }).first().click();
  await expect(list.getByRole("status").first()).toContainText("Test queued");
  await page.screenshot({ path: `${screens}/alerts.png`, fullPage: true });

  // Forensics: the report of the new cluster, downloaded as Markdown.
  await page.goto(`/forensics?cluster=${encodeURIComponent(clusterName)}&range=24h`);
  await expect(page.getByTestId("forensics-summary")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("event-log")).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-md").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.md$/);
  const markdown = await readFile(await download.path(), "utf8");
  expect(markdown).toContain("# ");
  await expect(page.getByTestId("download-json")).toHaveAttribute("href", /format=json/);
  await page.screenshot({ path: `${screens}/forensics.png`, fullPage: true });
});

test("a viewer gets the 403 page on /settings and a 403 from the webhook API", async ({ page }) => {
  await signIn(page, E2E_USERS.viewer);
  await page.goto("/settings");
  await expect(page.getByTestId("forbidden")).toContainText("403");
  await expect(page.getByTestId("clusters-admin")).toHaveCount(0);

  const post = await page.request.post("/api/webhooks", {
    data: { name: "viewer hook", url: "https://example.com/", format: "generic" },
  });
  expect(post.status()).toBe(403);

  // Alerts are readable; the controls that change things are not offered.
  await page.goto("/alerts");
  await expect(page.getByTestId("silences")).toBeVisible();
  await expect(page.getByRole("button", { name: "New silence" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add override" })).toHaveCount(0);
});
