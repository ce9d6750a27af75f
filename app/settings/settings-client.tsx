"use client";

import { useState } from "react";

import type { ClustersResponse } from "@/components/api-types";
import { Truncate } from "@/components/data-table";
import { EmptyState } from "@/components/feedback";
import { Loadable } from "@/components/loadable";
import { Panel } from "@/components/panel";
import { Time } from "@/components/time";
import { useApi } from "@/components/use-api";
import type { ClusterAdminView, ConnectionTestResult } from "@/lib/api/cluster-admin";
import type { PublicUser } from "@/lib/auth/users";

import styles from "../admin/_ui/admin.module.css";
import { Actions, ConfirmButton, Field, FormError, FormGrid } from "../admin/_ui/forms";
import { fieldError, useSend } from "../admin/_ui/mutate";

type User = Omit<PublicUser, "createdAt" | "lastLoginAt"> & { createdAt: string; lastLoginAt: string | null };

export function SettingsClient({ me }: { me: string }) {
  return (
    <>
      <div className="page-head">
        <h1>Settings</h1>
      </div>
      <Clusters />
      <Users me={me} />
    </>
  );
}

// ---- clusters ----

const CLUSTER_KEYS = [["cluster-admin"], ["clusters"]];

function Clusters() {
  const q = useApi<{ clusters: ClusterAdminView[] }>(["cluster-admin"], "/api/cluster-admin", {
    refetchMs: 15_000,
  });
  const status = useApi<ClustersResponse>(["clusters"], "/api/clusters", { refetchMs: 15_000 });
  const [editing, setEditing] = useState<ClusterAdminView | "new" | null>(null);
  const stateOf = (id: string) => status.data?.clusters.find((c) => c.id === id)?.status;
  return (
    <Panel
      title="Clusters"
      fetching={q.isFetching}
      testId="clusters-admin"
      actions={
        editing === null ? (
          <button type="button" className="btn" onClick={() => setEditing("new")}>
            Add cluster
          </button>
        ) : null
      }
    >
      {editing !== null ? (
        <ClusterForm
          key={editing === "new" ? "new" : editing.id}
          initial={editing === "new" ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <Loadable q={q}>
        {(data) =>
          data.clusters.length === 0 ? (
            <EmptyState title="No clusters yet">
              Add one: the collector starts polling it within seconds.
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table data-testid="cluster-list">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Brokers</th>
                    <th scope="col">Security</th>
                    <th scope="col">Poll</th>
                    <th scope="col">Status</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {data.clusters.map((c) => {
                    const s = stateOf(c.id);
                    return (
                      <tr key={c.id}>
                        <td>
                          <Truncate text={c.name} max="14rem" mono={false} />
                          {c.source === "env" ? (
                            <span
                              className="muted small"
                              title="re-applied from GROUPWATCH_CLUSTERS at start-up"
                            >
                              {" "}
                              (env)
                            </span>
                          ) : null}
                        </td>
                        <td>
                          <Truncate text={c.brokers.join(", ")} max="16rem" />
                        </td>
                        <td className="small">
                          {c.sasl ? `SASL ${c.sasl.mechanism} as ${c.sasl.username}` : "no SASL"} ·{" "}
                          {c.tls.enabled ? "TLS" : "plaintext"}
                        </td>
                        <td className="mono">{c.pollIntervalMs / 1000} s</td>
                        <td>
                          {!c.enabled ? (
                            <span className="badge pending">disabled</span>
                          ) : s ? (
                            <span
                              className={`badge ${s.state === "ok" ? "ok" : "error"}`}
                              title={s.lastError ?? ""}
                            >
                              {s.state}
                            </span>
                          ) : (
                            <span className="badge pending">not polled yet</span>
                          )}
                        </td>
                        <td>
                          <ClusterActions cluster={c} onEdit={() => setEditing(c)} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )
        }
      </Loadable>
    </Panel>
  );
}

function ClusterActions({ cluster, onEdit }: { cluster: ClusterAdminView; onEdit: () => void }) {
  const [armed, setArmed] = useState(false);
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const del = useSend<void>(() => ({ method: "DELETE", url: `/api/clusters/${cluster.id}` }), CLUSTER_KEYS);
  const test = useSend<void, ConnectionTestResult>(
    () => ({ method: "POST", url: "/api/clusters/test-connection", body: { clusterId: cluster.id } }),
    [],
    (r) => setResult(r),
  );
  return (
    <>
      <div className={styles.rowActions}>
        <button type="button" className="btn" onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="btn" disabled={test.isPending} onClick={() => test.mutate()}>
          {test.isPending ? "Testing…" : "Test"}
        </button>
        <ConfirmButton
          label="Delete"
          confirmLabel="Delete cluster and its history"
          armed={armed}
          setArmed={setArmed}
          disabled={del.isPending}
          onConfirm={() => del.mutate()}
        />
      </div>
      <FormError error={del.error ?? test.error} />
      {result ? <TestSteps result={result} /> : null}
    </>
  );
}

const STEP_ICON = { ok: "✓", failed: "✗", skipped: "–" } as const;
const STEP_CLASS = { ok: styles.stepOk, failed: styles.stepFailed, skipped: styles.stepSkipped } as const;

function TestSteps({ result }: { result: ConnectionTestResult }) {
  return (
    <div data-testid="connection-test" role="status" aria-live="polite">
      <p className={result.ok ? styles.stepOk : styles.stepFailed} style={{ margin: "0.5rem 0 0" }}>
        <strong>{result.ok ? "Connection works" : "Connection failed"}</strong>{" "}
        <span className="muted small">({(result.durationMs / 1000).toFixed(1)} s)</span>
      </p>
      <ol className={styles.steps}>
        {result.steps.map((s) => (
          <li key={s.step} data-step={s.step} data-status={s.status}>
            <span className={STEP_CLASS[s.status]} aria-label={s.status}>
              {STEP_ICON[s.status]}
            </span>
            <strong>{s.label}</strong>
            <span className={s.status === "failed" ? "error-text" : undefined}>{s.message}</span>
            <span className="muted small mono">{s.durationMs} ms</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

interface ClusterFormState {
  name: string;
  brokers: string;
  clientId: string;
  mechanism: string;
  username: string;
  password: string;
  tlsEnabled: boolean;
  ca: string;
  cert: string;
  key: string;
  rejectUnauthorized: boolean;
  pollIntervalMs: string;
  sessionTimeoutMs: string;
  maxPollIntervalMs: string;
  commitIntervalMs: string;
  enabled: boolean;
}

function initialState(c: ClusterAdminView | null): ClusterFormState {
  return {
    name: c?.name ?? "",
    brokers: c?.brokers.join(", ") ?? "",
    clientId: c?.clientId ?? "groupwatch",
    mechanism: c?.sasl?.mechanism ?? "",
    username: c?.sasl?.username ?? "",
    password: "",
    tlsEnabled: c?.tls.enabled ?? false,
    ca: c?.tls.ca ?? "",
    cert: c?.tls.cert ?? "",
    key: "",
    rejectUnauthorized: c?.tls.rejectUnauthorized ?? true,
    pollIntervalMs: String(c?.pollIntervalMs ?? 5000),
    sessionTimeoutMs: String(c?.sessionTimeoutMs ?? 45_000),
    maxPollIntervalMs: String(c?.maxPollIntervalMs ?? 300_000),
    commitIntervalMs: String(c?.commitIntervalMs ?? 5000),
    enabled: c?.enabled ?? true,
  };
}

/** The API body; empty secret fields are left out, so the stored ones are kept. */
function clusterBody(f: ClusterFormState): Record<string, unknown> {
  const num = (s: string) => (s.trim() === "" ? null : Number(s));
  return {
    name: f.name.trim(),
    brokers: f.brokers
      .split(/[\s,]+/)
      .map((b) => b.trim())
      .filter(Boolean),
    clientId: f.clientId.trim(),
    sasl: f.mechanism
      ? { mechanism: f.mechanism, username: f.username, ...(f.password ? { password: f.password } : {}) }
      : null,
    tls: f.tlsEnabled
      ? {
          enabled: true,
          ca: f.ca.trim() || null,
          cert: f.cert.trim() || null,
          ...(f.key.trim() ? { key: f.key } : {}),
          rejectUnauthorized: f.rejectUnauthorized,
        }
      : { enabled: false },
    pollIntervalMs: num(f.pollIntervalMs),
    sessionTimeoutMs: num(f.sessionTimeoutMs),
    maxPollIntervalMs: num(f.maxPollIntervalMs),
    commitIntervalMs: num(f.commitIntervalMs),
    enabled: f.enabled,
  };
}

function ClusterForm({ initial, onDone }: { initial: ClusterAdminView | null; onDone: () => void }) {
  const [f, setF] = useState(() => initialState(initial));
  const [result, setResult] = useState<ConnectionTestResult | null>(null);
  const set = <K extends keyof ClusterFormState>(k: K, v: ClusterFormState[K]) =>
    setF((s) => ({ ...s, [k]: v }));
  const save = useSend<Record<string, unknown>>(
    (body) =>
      initial
        ? { method: "PATCH", url: `/api/clusters/${initial.id}`, body }
        : { method: "POST", url: "/api/clusters", body },
    CLUSTER_KEYS,
    onDone,
  );
  const test = useSend<Record<string, unknown>, ConnectionTestResult>(
    (body) => ({ method: "POST", url: "/api/clusters/test-connection", body }),
    [],
    (r) => setResult(r),
  );
  const err = (path: string) => fieldError(save.error, path) ?? fieldError(test.error, path);
  const text = (k: keyof ClusterFormState, label: string, extra: { hint?: string; type?: string } = {}) => (
    <Field label={label} error={err(k)} hint={extra.hint}>
      {(p) => (
        <input
          {...p}
          type={extra.type ?? "text"}
          value={f[k] as string}
          onChange={(e) => set(k, e.target.value as never)}
        />
      )}
    </Field>
  );
  return (
    <form
      className={styles.form}
      aria-label={initial ? `Edit cluster ${initial.name}` : "New cluster"}
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(clusterBody(f));
      }}
    >
      <strong>{initial ? "Edit cluster" : "New cluster"}</strong>
      <FormGrid>
        {text("name", "Name")}
        {text("brokers", "Bootstrap brokers", { hint: "host:port, comma-separated" })}
        {text("clientId", "Client id")}
        <Field label="SASL" error={err("sasl.mechanism")}>
          {(p) => (
            <select {...p} value={f.mechanism} onChange={(e) => set("mechanism", e.target.value)}>
              <option value="">none</option>
              <option value="plain">PLAIN</option>
              <option value="scram-sha-256">SCRAM-SHA-256</option>
              <option value="scram-sha-512">SCRAM-SHA-512</option>
            </select>
          )}
        </Field>
        {f.mechanism ? (
          <>
            {text("username", "SASL username")}
            <Field
              label="SASL password"
              error={err("sasl.password")}
              hint={initial?.sasl?.hasPassword ? "set; leave empty to keep it" : undefined}
            >
              {(p) => (
                <input
                  {...p}
                  type="password"
                  autoComplete="new-password"
                  value={f.password}
                  onChange={(e) => set("password", e.target.value)}
                />
              )}
            </Field>
          </>
        ) : null}
        <div className={styles.field}>
          <span className={styles.hint}>&nbsp;</span>
          <label className={styles.inlineCheck}>
            <input
              type="checkbox"
              checked={f.tlsEnabled}
              onChange={(e) => set("tlsEnabled", e.target.checked)}
            />{" "}
            TLS
          </label>
          {f.tlsEnabled ? (
            <label className={styles.inlineCheck}>
              <input
                type="checkbox"
                checked={f.rejectUnauthorized}
                onChange={(e) => set("rejectUnauthorized", e.target.checked)}
              />{" "}
              Verify the broker certificate
            </label>
          ) : null}
        </div>
      </FormGrid>
      {f.tlsEnabled ? (
        <FormGrid>
          <Field label="CA certificate (PEM)" error={err("tls.ca")} hint="empty: the system CAs">
            {(p) => <textarea {...p} value={f.ca} onChange={(e) => set("ca", e.target.value)} />}
          </Field>
          <Field label="Client certificate (PEM)" error={err("tls.cert")}>
            {(p) => <textarea {...p} value={f.cert} onChange={(e) => set("cert", e.target.value)} />}
          </Field>
          <Field
            label="Client key (PEM)"
            error={err("tls.key")}
            hint={initial?.tls.hasKey ? "set; leave empty to keep it" : undefined}
          >
            {(p) => <textarea {...p} value={f.key} onChange={(e) => set("key", e.target.value)} />}
          </Field>
        </FormGrid>
      ) : null}
      <FormGrid>
        {text("pollIntervalMs", "Poll interval (ms)", { type: "number" })}
        {text("sessionTimeoutMs", "Consumers' session.timeout.ms", { type: "number" })}
        {text("maxPollIntervalMs", "Consumers' max.poll.interval.ms", { type: "number" })}
        {text("commitIntervalMs", "Consumers' commit interval (ms)", { type: "number" })}
        <div className={styles.field}>
          <span className={styles.hint}>&nbsp;</span>
          <label className={styles.inlineCheck}>
            <input type="checkbox" checked={f.enabled} onChange={(e) => set("enabled", e.target.checked)} />{" "}
            Poll this cluster
          </label>
        </div>
      </FormGrid>
      <FormError error={save.error ?? test.error} />
      <Actions>
        <button type="submit" className="btn" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save cluster"}
        </button>
        <button
          type="button"
          className="btn"
          disabled={test.isPending}
          onClick={() => test.mutate({ ...clusterBody(f), ...(initial ? { clusterId: initial.id } : {}) })}
        >
          {test.isPending ? "Testing… (up to 10 s)" : "Test connection"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </Actions>
      {result ? <TestSteps result={result} /> : null}
    </form>
  );
}

// ---- users ----

function Users({ me }: { me: string }) {
  const q = useApi<{ users: User[] }>(["users"], "/api/users", { refetchMs: 30_000 });
  const [adding, setAdding] = useState(false);
  return (
    <Panel
      title="Users and roles"
      fetching={q.isFetching}
      testId="users-admin"
      actions={
        adding ? null : (
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            Add user
          </button>
        )
      }
    >
      <p className="muted small">
        viewer: reads everything · operator: + silences alerts, sends test webhooks · admin: + clusters,
        rules, webhooks, users
      </p>
      {adding ? <UserForm onDone={() => setAdding(false)} /> : null}
      <Loadable q={q}>
        {(data) => (
          <div className="table-wrap">
            <table data-testid="users">
              <thead>
                <tr>
                  <th scope="col">Username</th>
                  <th scope="col">Name</th>
                  <th scope="col">Role</th>
                  <th scope="col">Sign-in</th>
                  <th scope="col">Last sign-in</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {data.users.map((u) => (
                  <UserRow key={u.id} user={u} me={me} />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Loadable>
    </Panel>
  );
}

function UserRow({ user: u, me }: { user: User; me: string }) {
  const [armed, setArmed] = useState(false);
  const patch = useSend<Record<string, unknown>>(
    (body) => ({ method: "PATCH", url: `/api/users/${u.id}`, body }),
    [["users"]],
  );
  const del = useSend<void>(() => ({ method: "DELETE", url: `/api/users/${u.id}` }), [["users"]]);
  return (
    <tr>
      <td>
        <Truncate text={u.username} max="12rem" />
        {u.username === me ? <span className="muted small"> (you)</span> : null}
      </td>
      <td>
        <Truncate text={u.name} max="12rem" mono={false} />
      </td>
      <td>
        <select
          aria-label={`Role of ${u.username}`}
          value={u.role}
          disabled={patch.isPending}
          onChange={(e) => patch.mutate({ role: e.target.value })}
        >
          <option value="viewer">viewer</option>
          <option value="operator">operator</option>
          <option value="admin">admin</option>
        </select>
      </td>
      <td>
        {u.provider === "oidc" ? "OIDC" : "password"}
        {u.disabled ? <span className="badge pending"> disabled</span> : null}
      </td>
      <td>{u.lastLoginAt ? <Time iso={u.lastLoginAt} /> : <span className="muted">never</span>}</td>
      <td>
        <div className={styles.rowActions}>
          <button
            type="button"
            className="btn"
            disabled={patch.isPending}
            onClick={() => patch.mutate({ disabled: !u.disabled })}
          >
            {u.disabled ? "Enable" : "Disable"}
          </button>
          <ConfirmButton
            label="Delete"
            confirmLabel={`Delete ${u.username}`}
            armed={armed}
            setArmed={setArmed}
            disabled={del.isPending}
            onConfirm={() => del.mutate()}
          />
        </div>
        <FormError error={patch.error ?? del.error} />
      </td>
    </tr>
  );
}

function UserForm({ onDone }: { onDone: () => void }) {
  const [username, setUsername] = useState("");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState("viewer");
  const create = useSend<Record<string, unknown>>(
    (body) => ({ method: "POST", url: "/api/users", body }),
    [["users"]],
    onDone,
  );
  return (
    <form
      className={styles.form}
      aria-label="New user"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({ username, name, password, role });
      }}
    >
      <FormGrid>
        <Field label="Username">
          {(p) => <input {...p} value={username} onChange={(e) => setUsername(e.target.value)} required />}
        </Field>
        <Field label="Display name">
          {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} />}
        </Field>
        <Field label="Password" hint="at least 8 characters">
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
              minLength={8}
            />
          )}
        </Field>
        <Field label="Role">
          {(p) => (
            <select {...p} value={role} onChange={(e) => setRole(e.target.value)}>
              <option value="viewer">viewer</option>
              <option value="operator">operator</option>
              <option value="admin">admin</option>
            </select>
          )}
        </Field>
      </FormGrid>
      <FormError error={create.error} />
      <Actions>
        <button type="submit" className="btn" disabled={create.isPending}>
          {create.isPending ? "Saving…" : "Create user"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </Actions>
    </form>
  );
}
