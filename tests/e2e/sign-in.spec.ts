import { expect, test, type Browser, type Page } from "@playwright/test";

import { E2E_USERS } from "./users";

// Sign-in in a real browser against `next start`: the form, the overview behind it, and what a
// viewer may not open. Screenshots land in test-results/screens/.

const screens = "test-results/screens";

async function signedInPage(browser: Browser, user: { username: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, user);
  return page;
}

async function signIn(page: Page, user: { username: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Password").press("Enter"); // keyboard submit
  await expect(page).toHaveURL(/\/$/);
}

test("without a session: pages redirect to /login, the API answers 401 JSON, /api/health stays open", async ({
  page,
  request,
}) => {
  const api = await request.get("/api/clusters");
  expect(api.status()).toBe(401);
  expect(await api.json()).toEqual({ error: expect.any(String) as unknown });
  expect((await request.get("/api/health")).status()).toBe(200);

  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fadmin%2Fusers$/);
  await expect(page.getByRole("heading", { name: "Sign in to groupwatch" })).toBeVisible();
  await expect(page.getByLabel("Username")).toBeFocused();
  await page.screenshot({ path: `${screens}/login.png`, fullPage: true });
});

test("a wrong password shows an error on the form", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Username").fill(E2E_USERS.admin.username);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toHaveText(/wrong username or password/i);
  await expect(page).toHaveURL(/\/login/);
});

test("the admin signs in with the form, sees the overview and the users page, and signs out", async ({
  page,
}) => {
  await signIn(page, E2E_USERS.admin);
  await expect(page.getByRole("heading", { name: "Clusters" })).toBeVisible();
  await expect(page.getByTestId("signed-in-user")).toContainText(`${E2E_USERS.admin.username} admin`);
  await page.screenshot({ path: `${screens}/overview.png`, fullPage: true });

  const api = await page.request.get("/api/users");
  expect(api.status()).toBe(200);
  const { users } = (await api.json()) as { users: { id: string; username: string }[] };
  expect(users.map((u) => u.username)).toEqual(expect.arrayContaining([E2E_USERS.viewer.username]));
  // The only admin of this fresh database can't demote themselves: nobody could undo it.
  const self = users.find((u) => u.username === E2E_USERS.admin.username)!;
  const demote = await page.request.patch(`/api/users/${self.id}`, { data: { role: "viewer" } });
  expect(demote.status()).toBe(409);

  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  await expect(page.getByTestId("users")).toContainText(E2E_USERS.viewer.username);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  expect((await page.request.get("/api/clusters")).status()).toBe(401);
});

test("a viewer gets 403 from the admin API and cannot open the users page", async ({ page }) => {
  await signIn(page, E2E_USERS.viewer);
  await expect(page.getByTestId("signed-in-user")).toContainText(`${E2E_USERS.viewer.username} viewer`);
  await expect(page.getByRole("link", { name: "Users" })).toHaveCount(0);
  // Signed in: the viewer-level API lets the request through (whatever the route answers then).
  expect([401, 403]).not.toContain((await page.request.get("/api/clusters")).status());

  const list = await page.request.get("/api/users");
  expect(list.status()).toBe(403);
  expect(await list.json()).toEqual({ error: expect.stringMatching(/admin/) as unknown });
  const create = await page.request.post("/api/users", {
    data: { username: "sneaky", password: "sneaky password", role: "admin" },
  });
  expect(create.status()).toBe(403);

  await page.goto("/admin/users");
  await expect(page.getByTestId("forbidden")).toContainText("403");
  await expect(page.getByTestId("users")).toHaveCount(0);
});

test("a user disabled while signed in loses pages and API at the next request", async ({ browser }) => {
  const operator = await signedInPage(browser, E2E_USERS.operator);
  await expect(operator.getByTestId("signed-in-user")).toContainText("operator");

  const admin = await signedInPage(browser, E2E_USERS.admin);
  const { users } = (await (await admin.request.get("/api/users")).json()) as {
    users: { id: string; username: string }[];
  };
  const target = users.find((u) => u.username === E2E_USERS.operator.username)!;
  expect((await admin.request.patch(`/api/users/${target.id}`, { data: { disabled: true } })).status()).toBe(
    200,
  );

  expect((await operator.request.get("/api/clusters")).status()).toBe(401);
  await operator.goto("/");
  await expect(operator).toHaveURL(/\/login\?callbackUrl=%2F$/);
  await expect(operator.getByRole("heading", { name: "Sign in to groupwatch" })).toBeVisible();
});
