import { readFile } from "node:fs/promises";

import { expect, test, type Page } from "@playwright/test";
import { Kafka, logLevel, type Admin, type Producer } from "kafkajs";

import { mdText } from "../../lib/domain/forensics";
import { startKafkajsConsumer, uniqueName, type Managed } from "../fixtures/processes";
import { E2E_CLUSTER, E2E_KAFKA, E2E_SESSION_TIMEOUT_MS } from "./global-setup";
import { E2E_USERS } from "./users";

// The dashboard against the real collector and a real broker: two kafkajs consumers in one
// group, one SIGKILLed; the group page must show the crash episode without a reload.
// Screenshots land in test-results/screens/.

const screens = "test-results/screens";
const topic = uniqueName("e2e-dash-topic");
// A group id with characters that need encoding in a URL path.
const group = `${uniqueName("e2e-dash")}/ü &x`;
const groupUrl = `/clusters/${encodeURIComponent(E2E_CLUSTER)}/groups/${encodeURIComponent(group)}`;
const groupApi = `/api${groupUrl}`;

let admin: Admin;
let producer: Producer;
let feeding: NodeJS.Timeout | undefined;
const consumers: Managed[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const kafka = new Kafka({ clientId: "gw-e2e", brokers: [E2E_KAFKA], logLevel: logLevel.NOTHING });
  admin = kafka.admin();
  producer = kafka.producer();
  await Promise.all([admin.connect(), producer.connect()]);
  await admin.createTopics({ topics: [{ topic, numPartitions: 2 }], waitForLeaders: true });
  // Records keep arriving, so a crashed member leaves a backlog behind: the crash evidence.
  feeding = setInterval(() => {
    producer.send({ topic, messages: [{ value: "a" }, { value: "b" }] }).catch(() => undefined);
  }, 200);
});

test.afterAll(async () => {
  clearInterval(feeding);
  await Promise.all(consumers.map((c) => c.kill()));
  await producer?.disconnect().catch(() => undefined);
  await admin?.disconnect().catch(() => undefined);
});

async function signIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(E2E_USERS.admin.username);
  await page.getByLabel("Password").fill(E2E_USERS.admin.password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(/\/$/);
}

interface GroupAnswer {
  group: { state: string; memberCount: number; maxLag: string | null };
}

test("a crashed consumer shows up live on the group page, with its evidence; overview and cluster page list the group", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const consumer = (clientId: string) =>
    startKafkajsConsumer({
      brokers: [E2E_KAFKA],
      groupId: group,
      topics: [topic],
      clientId,
      sessionTimeoutMs: E2E_SESSION_TIMEOUT_MS,
    });
  const survivor = consumer("survivor");
  const victim = consumer("victim");
  consumers.push(survivor, victim);

  await signIn(page);
  await Promise.all([survivor.waitForEvent("joined", 60_000), victim.waitForEvent("joined", 60_000)]);

  // The collector has seen both members and their commits moving.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(groupApi);
        if (!res.ok()) return `HTTP ${res.status()}`;
        const { group: g } = (await res.json()) as GroupAnswer;
        return `${g.state} ${g.memberCount} ${g.maxLag === null ? "no-commits" : "commits"}`;
      },
      { timeout: 60_000, intervals: [500] },
    )
    .toBe("Stable 2 commits");

  await page.goto(groupUrl);
  await expect(page.getByTestId("group-page").locator("h1")).toContainText(group);
  const members = page.getByTestId("member");
  await expect(members).toHaveCount(2);
  await expect(page.getByTestId("members")).toContainText("survivor");
  await expect(page.getByTestId("members")).toContainText("victim");
  await page.waitForTimeout(2500); // two more polls of commits advancing before the crash

  await victim.kill();

  // No reload from here: the episode list refreshes itself.
  const crash = page.getByTestId("episode").filter({ has: page.locator('[data-cause="member-crashed"]') });
  await expect(crash.first()).toBeVisible({ timeout: 60_000 });
  await crash.first().locator("summary").click();
  const cause = crash.first().getByTestId("cause").filter({ hasText: "member crashed" });
  await expect(cause.first()).toBeVisible();
  await expect(cause.first()).toContainText("victim");
  const evidence = cause.first().getByTestId("evidence");
  await expect(evidence).toBeVisible();
  expect((await evidence.innerText()).trim().length).toBeGreaterThan(10);
  await expect(members).toHaveCount(1, { timeout: 20_000 });
  await expect(page.getByTestId("session-gantt").locator('[data-left-how="member-crashed"]')).toHaveCount(1, {
    timeout: 20_000,
  });
  // A shorter range through the picker (written to the URL), then the picture.
  await page.getByRole("group", { name: "Time range" }).getByRole("button", { name: "15m" }).click();
  await expect(page).toHaveURL(/[?&]range=15m/);
  await expect(page.getByRole("button", { name: "15m" })).toHaveAttribute("aria-pressed", "true");
  await expect(crash.first()).toBeVisible();
  await page.screenshot({ path: `${screens}/group.png`, fullPage: true });
  // The theme follows the system until the user picks one: the same page in dark.
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.screenshot({ path: `${screens}/group-dark.png`, fullPage: true });
  await page.emulateMedia({ colorScheme: "light" });

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Clusters" })).toBeVisible();
  const card = page.locator(`[data-testid="cluster"][data-cluster-name="${E2E_CLUSTER}"]`);
  await expect(card).toContainText("ok");
  await expect(card.getByTestId("groups-by-state")).toContainText("Stable");
  await expect(page.getByTestId("rebalance-chart")).toBeVisible();
  await page.screenshot({ path: `${screens}/overview.png`, fullPage: true });

  await card.getByRole("link", { name: E2E_CLUSTER, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/clusters/${E2E_CLUSTER}$`));
  await expect(page.getByTestId("broker").first()).toBeVisible();
  await page.getByLabel("Search groups").fill(group.slice(0, 20));
  await expect(page).toHaveURL(/[?&]q=/);
  const row = page.getByTestId("group-row").filter({ hasText: group });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId("group-row")).toHaveCount(1);
  await expect(page.getByTestId("group-total")).toHaveText("1 group");
  await page.screenshot({ path: `${screens}/cluster.png`, fullPage: true });

  // The shareable link keeps the search; the row's link leads back to the group.
  await page.reload();
  await expect(page.getByLabel("Search groups")).toHaveValue(group.slice(0, 20));
  await row.getByRole("link").click();
  await expect(page.getByTestId("group-page").locator("h1")).toContainText(group);

  // Forensics of that window for that group: the Markdown report names the crash.
  await page.goto(
    `/forensics?cluster=${encodeURIComponent(E2E_CLUSTER)}&range=15m&group=${encodeURIComponent(group)}`,
  );
  await expect(page.getByTestId("forensics-summary")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("event-log")).toContainText("member crashed");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-md").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^groupwatch-e2e-.*\.md$/);
  const markdown = await readFile(await download.path(), "utf8");
  expect(markdown).toContain("**member-crashed**");
  expect(markdown).toContain(mdText(group));
  await page.screenshot({ path: `${screens}/forensics.png`, fullPage: true });

  // A group id holding percent-encoding of its own is decoded exactly once; unknown groups
  // show the API's message with a retry.
  const odd = "no-such-group%41%2F";
  await page.goto(`/clusters/${E2E_CLUSTER}/groups/${encodeURIComponent(odd)}`);
  await expect(page.getByTestId("group-page").locator("h1")).toHaveText(odd);
  const error = page.getByTestId("error-state").first();
  await expect(error).toContainText(`unknown group "${odd}"`);
  await expect(error.getByRole("button", { name: "Retry" })).toBeVisible();
});
