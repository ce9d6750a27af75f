// Which URLs groupwatch may send webhooks to. Checked when an endpoint is saved and again before
// every delivery, so narrowing the allow-list also stops endpoints saved before the change.
// No I/O here: host names are matched as written, not resolved.

export interface WebhookUrlPolicy {
  /** Lower-case hosts, `*.example.com` wildcards (subdomains only) or `*`; null: any host. */
  allowedHosts: readonly string[] | null;
}

export const ALLOW_ANY_HOST: WebhookUrlPolicy = { allowedHosts: null };

export type UrlCheck = { ok: true; url: URL } | { ok: false; error: string };

/** `[::1]` and `::1` name the same host; `example.com.` and `example.com` too. */
function normalizeHost(host: string): string {
  let h = host.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  if (h.endsWith(".")) h = h.slice(0, -1);
  return h;
}

/** Parses a comma-separated allow-list; empty or blank means "no allow-list". */
export function parseAllowedHosts(value: string | undefined): string[] | null {
  const hosts = (value ?? "")
    .split(",")
    .map(normalizeHost)
    .filter((h) => h.length > 0);
  return hosts.length > 0 ? hosts : null;
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const h = normalizeHost(host);
  return allowed.some((entry) => {
    const e = normalizeHost(entry);
    if (e === "*") return true;
    if (e.startsWith("*.")) return h.endsWith(e.slice(1)) && h.length > e.length - 1;
    return h === e;
  });
}

export function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: "webhook URL is not a valid absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, error: `webhook URL must use http or https, not ${url.protocol.replace(/:$/, "")}` };
  }
  if (url.username !== "" || url.password !== "") {
    return {
      ok: false,
      error: "webhook URL must not contain credentials; use the endpoint secret instead",
    };
  }
  if (url.hostname === "") return { ok: false, error: "webhook URL has no host" };
  if (policy.allowedHosts && !hostAllowed(url.hostname, policy.allowedHosts)) {
    return {
      ok: false,
      error: `webhook host ${normalizeHost(url.hostname)} is not allowed by GROUPWATCH_WEBHOOK_ALLOWED_HOSTS`,
    };
  }
  return { ok: true, url };
}

/** The policy from GROUPWATCH_WEBHOOK_ALLOWED_HOSTS (comma-separated; unset: any host). */
export function webhookPolicyFromEnv(): WebhookUrlPolicy {
  return { allowedHosts: parseAllowedHosts(process.env.GROUPWATCH_WEBHOOK_ALLOWED_HOSTS) };
}
