"use client";

import { useState } from "react";

import { groupPath, type ClustersResponse, type IncidentsResponse, type Json } from "@/components/api-types";
import { IdLink, Truncate } from "@/components/data-table";
import { EmptyState } from "@/components/feedback";
import { Loadable } from "@/components/loadable";
import { Panel } from "@/components/panel";
import { Time } from "@/components/time";
import { useApi } from "@/components/use-api";
import type { listRules, RuleOverrideView } from "@/lib/api/rules";
import type { listSilences, SilenceView } from "@/lib/api/silences";
import { roleAtLeast, type Role } from "@/lib/auth/roles";
import type { DeliveryLogEntry } from "@/lib/db/queries/outbox";
import type { WebhookEndpointView } from "@/lib/db/queries/webhooks";

import styles from "../admin/_ui/admin.module.css";
import { Actions, ConfirmButton, Field, FormError, FormGrid } from "../admin/_ui/forms";
import { fieldError, useSend } from "../admin/_ui/mutate";

const KINDS = ["storm", "stuck", "lag", "status", "emptied"] as const;
const KIND_LABELS: Record<string, string> = {
  storm: "rebalance storm",
  stuck: "stuck rebalance",
  lag: "lag",
  status: "consumer status",
  emptied: "emptied with lag",
};

type RulesResponse = Json<Awaited<ReturnType<typeof listRules>>>;
type SilencesResponse = Json<Awaited<ReturnType<typeof listSilences>>>;

function useClusters() {
  return useApi<ClustersResponse>(["clusters"], "/api/clusters", { refetchMs: false });
}

export function AlertsClient({ role }: { role: Role }) {
  const operator = roleAtLeast(role, "operator");
  const admin = roleAtLeast(role, "admin");
  return (
    <>
      <div className="page-head">
        <h1>Alerts</h1>
      </div>
      <Incidents />
      <Rules admin={admin} />
      <Silences operator={operator} />
      {operator ? (
        <Webhooks admin={admin} />
      ) : (
        <Panel title="Webhook endpoints">
          <p className="muted">Webhook endpoints are visible to operators and admins.</p>
        </Panel>
      )}
    </>
  );
}

// ---- incidents ----

function numbers(details: unknown): string {
  if (!details || typeof details !== "object") return "";
  return Object.entries(details as Record<string, unknown>)
    .filter(([, v]) => typeof v === "number" || typeof v === "string")
    .slice(0, 4)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(" · ");
}

function Incidents() {
  const q = useApi<IncidentsResponse>(["incidents", "list"], "/api/incidents?limit=200");
  return (
    <Panel title="Incidents" fetching={q.isFetching} testId="incidents">
      <Loadable q={q}>
        {(data) => {
          const open = data.incidents.filter((i) => i.state === "open");
          const past = data.incidents.filter((i) => i.state !== "open");
          if (data.incidents.length === 0)
            return <EmptyState title="No incidents">Incidents open when a rule fires on a group.</EmptyState>;
          return (
            <>
              <h3 className="small muted">Open ({open.length})</h3>
              <IncidentTable rows={open} />
              <h3 className="small muted">Past ({past.length})</h3>
              <IncidentTable rows={past} />
              {data.truncated ? <p className="muted small">Showing the newest 200.</p> : null}
            </>
          );
        }}
      </Loadable>
    </Panel>
  );
}

function IncidentTable({ rows }: { rows: IncidentsResponse["incidents"] }) {
  if (rows.length === 0) return <p className="muted small">None.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Severity</th>
            <th scope="col">Cluster</th>
            <th scope="col">Group</th>
            <th scope="col">Opened</th>
            <th scope="col">Resolved</th>
            <th scope="col">Numbers</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((i) => (
            <tr key={i.id}>
              <td>{KIND_LABELS[i.kind] ?? i.kind}</td>
              <td>
                <span className={`badge sev-${i.severity === "critical" ? "critical" : "warning"}`}>
                  {i.severity}
                </span>
              </td>
              <td>
                <Truncate text={i.cluster} max="10rem" />
              </td>
              <td>
                <IdLink href={groupPath(i.cluster, i.groupId)} text={i.groupId} max="18rem" />
              </td>
              <td>
                <Time iso={i.openedAt} />
              </td>
              <td>
                {i.resolvedAt ? <Time iso={i.resolvedAt} /> : <span className="badge error">open</span>}
              </td>
              <td className="small" title={i.summary}>
                {numbers(i.details) || i.summary}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

// ---- rules ----

const scopeOf = (o: { cluster: string | null; groupGlob: string | null }) =>
  `${o.cluster ?? "every cluster"} · ${o.groupGlob ?? "every group"}`;

function Rules({ admin }: { admin: boolean }) {
  const q = useApi<RulesResponse>(["alerts", "rules"], "/api/alerts/rules", { refetchMs: 30_000 });
  const [editing, setEditing] = useState<RuleOverrideView | "new" | null>(null);
  return (
    <Panel
      title="Rules"
      fetching={q.isFetching}
      testId="rules"
      actions={
        admin && editing === null ? (
          <button type="button" className="btn" onClick={() => setEditing("new")}>
            Add override
          </button>
        ) : null
      }
    >
      <Loadable q={q}>
        {(data) => (
          <>
            {editing !== null ? (
              <RuleForm
                key={editing === "new" ? "new" : editing.id}
                initial={editing === "new" ? null : editing}
                defaults={data.defaults}
                onDone={() => setEditing(null)}
              />
            ) : null}
            <h3 className="small muted">Defaults</h3>
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Rule</th>
                    <th scope="col">Enabled</th>
                    <th scope="col">Severity</th>
                    <th scope="col">Params</th>
                  </tr>
                </thead>
                <tbody>
                  {data.defaults.map((d) => (
                    <tr key={d.kind}>
                      <td>
                        {KIND_LABELS[d.kind]} <span className="muted mono small">{d.kind}</span>
                      </td>
                      <td>{d.enabled ? "yes" : "no"}</td>
                      <td>{d.severity}</td>
                      <td className={styles.params}>{JSON.stringify(d.params)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <h3 className="small muted">Overrides</h3>
            {data.overrides.length === 0 ? (
              <p className="muted small">No overrides: the defaults apply everywhere.</p>
            ) : (
              <div className="table-wrap">
                <table data-testid="rule-overrides">
                  <thead>
                    <tr>
                      <th scope="col">Rule</th>
                      <th scope="col">Scope</th>
                      <th scope="col">Enabled</th>
                      <th scope="col">Params</th>
                      <th scope="col">Updated</th>
                      {admin ? <th scope="col">Actions</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {data.overrides.map((o) => (
                      <tr key={o.id}>
                        <td>{KIND_LABELS[o.kind] ?? o.kind}</td>
                        <td>
                          <Truncate text={scopeOf(o)} max="20rem" />
                        </td>
                        <td>{o.enabled ? "yes" : "no"}</td>
                        <td className={styles.params}>{JSON.stringify(o.params)}</td>
                        <td>
                          <Time iso={o.updatedAt} />
                        </td>
                        {admin ? (
                          <td>
                            <RuleActions rule={o} onEdit={() => setEditing(o)} />
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Loadable>
    </Panel>
  );
}

function RuleActions({ rule, onEdit }: { rule: RuleOverrideView; onEdit: () => void }) {
  const [armed, setArmed] = useState(false);
  const del = useSend<void>(
    () => ({ method: "DELETE", url: `/api/alerts/rules/${rule.id}` }),
    [["alerts", "rules"]],
  );
  return (
    <div className={styles.rowActions}>
      <button type="button" className="btn" onClick={onEdit}>
        Edit
      </button>
      <ConfirmButton
        label="Delete"
        confirmLabel="Delete override"
        armed={armed}
        setArmed={setArmed}
        disabled={del.isPending}
        onConfirm={() => del.mutate()}
      />
      <FormError error={del.error} />
    </div>
  );
}

function RuleForm({
  initial,
  defaults,
  onDone,
}: {
  initial: RuleOverrideView | null;
  defaults: RulesResponse["defaults"];
  onDone: () => void;
}) {
  const clusters = useClusters();
  const [clusterId, setClusterId] = useState(initial?.clusterId ?? "");
  const [groupGlob, setGroupGlob] = useState(initial?.groupGlob ?? "");
  const [kind, setKind] = useState<string>(initial?.kind ?? "lag");
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [params, setParams] = useState(initial ? JSON.stringify(initial.params, null, 2) : "{}");
  const [jsonError, setJsonError] = useState<string | null>(null);
  const save = useSend<Record<string, unknown>>(
    (body) =>
      initial
        ? { method: "PATCH", url: `/api/alerts/rules/${initial.id}`, body }
        : { method: "POST", url: "/api/alerts/rules", body },
    [["alerts", "rules"]],
    onDone,
  );
  const defaultParams = defaults.find((d) => d.kind === kind)?.params;
  return (
    <form
      className={styles.form}
      onSubmit={(e) => {
        e.preventDefault();
        let parsed: unknown;
        try {
          parsed = JSON.parse(params || "{}");
        } catch {
          setJsonError("params must be a JSON object");
          return;
        }
        setJsonError(null);
        save.mutate({
          clusterId: clusterId || null,
          groupGlob: groupGlob.trim() || null,
          kind,
          enabled,
          params: parsed,
        });
      }}
    >
      <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
        <legend>{initial ? "Edit override" : "New override"}</legend>
        <FormGrid>
          <Field label="Rule" error={fieldError(save.error, "kind")}>
            {(p) => (
              <select {...p} value={kind} onChange={(e) => setKind(e.target.value)}>
                {KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Cluster" error={fieldError(save.error, "clusterId")}>
            {(p) => (
              <select {...p} value={clusterId} onChange={(e) => setClusterId(e.target.value)}>
                <option value="">every cluster</option>
                {clusters.data?.clusters.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Group glob"
            error={fieldError(save.error, "groupGlob")}
            hint="e.g. orders-*; empty: every group"
          >
            {(p) => <input {...p} value={groupGlob} onChange={(e) => setGroupGlob(e.target.value)} />}
          </Field>
          <div className={styles.field}>
            <span className={styles.hint}>&nbsp;</span>
            <label className={styles.inlineCheck}>
              <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />{" "}
              Enabled
            </label>
          </div>
        </FormGrid>
        <Field
          label="Params (JSON; any subset of the rule's params, and severity)"
          error={jsonError ?? fieldError(save.error, "params")}
          hint={defaultParams ? `defaults: ${JSON.stringify(defaultParams)}` : undefined}
        >
          {(p) => <textarea {...p} value={params} onChange={(e) => setParams(e.target.value)} rows={4} />}
        </Field>
        <FormError error={save.error} />
        <Actions>
          <button type="submit" className="btn" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save override"}
          </button>
          <button type="button" className="btn" onClick={onDone}>
            Cancel
          </button>
        </Actions>
      </fieldset>
    </form>
  );
}

// ---- silences ----

const DURATIONS = ["30m", "1h", "2h", "4h", "8h", "1d", "3d", "7d"];

function Silences({ operator }: { operator: boolean }) {
  const q = useApi<SilencesResponse>(["silences"], "/api/silences", { refetchMs: 15_000 });
  const [adding, setAdding] = useState(false);
  return (
    <Panel
      title="Silences"
      fetching={q.isFetching}
      testId="silences"
      actions={
        operator && !adding ? (
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            New silence
          </button>
        ) : null
      }
    >
      {adding ? <SilenceForm onDone={() => setAdding(false)} /> : null}
      <Loadable q={q}>
        {(data) => (
          <>
            <h3 className="small muted">Active and upcoming ({data.active.length})</h3>
            <SilenceTable rows={data.active} operator={operator} />
            <h3 className="small muted">Ended in the last 7 days ({data.recent.length})</h3>
            <SilenceTable rows={data.recent} operator={false} />
          </>
        )}
      </Loadable>
    </Panel>
  );
}

function SilenceTable({ rows, operator }: { rows: SilenceView[]; operator: boolean }) {
  if (rows.length === 0) return <p className="muted small">None.</p>;
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Matches</th>
            <th scope="col">From</th>
            <th scope="col">Until</th>
            <th scope="col">Comment</th>
            <th scope="col">By</th>
            {operator ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id}>
              <td>
                <Truncate
                  text={`${s.kind ? KIND_LABELS[s.kind] : "every rule"} · ${scopeOf(s)}`}
                  max="22rem"
                />
              </td>
              <td>
                <Time iso={s.startsAt} />
              </td>
              <td>
                <Time iso={s.endsAt} />
              </td>
              <td>
                <Truncate text={s.comment} max="18rem" />
              </td>
              <td>
                <Truncate text={s.createdBy} max="10rem" />
              </td>
              {operator ? (
                <td>
                  <ExpireButton id={s.id} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ExpireButton({ id }: { id: string }) {
  const [armed, setArmed] = useState(false);
  const expire = useSend<void>(() => ({ method: "DELETE", url: `/api/silences/${id}` }), [["silences"]]);
  return (
    <>
      <ConfirmButton
        label="Expire"
        confirmLabel="Expire now"
        armed={armed}
        setArmed={setArmed}
        disabled={expire.isPending}
        onConfirm={() => expire.mutate()}
      />
      <FormError error={expire.error} />
    </>
  );
}

function SilenceForm({ onDone }: { onDone: () => void }) {
  const clusters = useClusters();
  const [clusterId, setClusterId] = useState("");
  const [groupGlob, setGroupGlob] = useState("");
  const [kind, setKind] = useState("");
  const [duration, setDuration] = useState("2h");
  const [comment, setComment] = useState("");
  const create = useSend<Record<string, unknown>>(
    (body) => ({ method: "POST", url: "/api/silences", body }),
    [["silences"]],
    onDone,
  );
  return (
    <form
      className={styles.form}
      aria-label="New silence"
      onSubmit={(e) => {
        e.preventDefault();
        create.mutate({
          clusterId: clusterId || null,
          groupGlob: groupGlob.trim() || null,
          kind: kind || null,
          duration,
          comment,
        });
      }}
    >
      <FormGrid>
        <Field label="Cluster" error={fieldError(create.error, "clusterId")}>
          {(p) => (
            <select {...p} value={clusterId} onChange={(e) => setClusterId(e.target.value)}>
              <option value="">every cluster</option>
              {clusters.data?.clusters.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Group glob" error={fieldError(create.error, "groupGlob")} hint="empty: every group">
          {(p) => <input {...p} value={groupGlob} onChange={(e) => setGroupGlob(e.target.value)} />}
        </Field>
        <Field label="Rule" error={fieldError(create.error, "kind")}>
          {(p) => (
            <select {...p} value={kind} onChange={(e) => setKind(e.target.value)}>
              <option value="">every rule</option>
              {KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Duration"
          error={fieldError(create.error, "endsAt") ?? fieldError(create.error, "duration")}
        >
          {(p) => (
            <select {...p} value={duration} onChange={(e) => setDuration(e.target.value)}>
              {DURATIONS.map((d) => (
                <option key={d} value={d}>
                  {d}
                </option>
              ))}
            </select>
          )}
        </Field>
      </FormGrid>
      <Field
        label="Comment"
        error={fieldError(create.error, "comment")}
        hint="why: a ticket, a maintenance window"
      >
        {(p) => (
          <input
            {...p}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
            required
            maxLength={1000}
          />
        )}
      </Field>
      <FormError error={create.error} />
      <Actions>
        <button type="submit" className="btn" disabled={create.isPending}>
          {create.isPending ? "Saving…" : "Create silence"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </Actions>
    </form>
  );
}

// ---- webhooks ----

function Webhooks({ admin }: { admin: boolean }) {
  const q = useApi<{ endpoints: WebhookEndpointView[] }>(["webhooks"], "/api/webhooks", {
    refetchMs: 15_000,
  });
  const [editing, setEditing] = useState<WebhookEndpointView | "new" | null>(null);
  return (
    <Panel
      title="Webhook endpoints"
      fetching={q.isFetching}
      testId="webhooks"
      actions={
        admin && editing === null ? (
          <button type="button" className="btn" onClick={() => setEditing("new")}>
            Add endpoint
          </button>
        ) : null
      }
    >
      {editing !== null ? (
        <WebhookForm
          key={editing === "new" ? "new" : editing.id}
          initial={editing === "new" ? null : editing}
          onDone={() => setEditing(null)}
        />
      ) : null}
      <Loadable q={q}>
        {(data) =>
          data.endpoints.length === 0 ? (
            <EmptyState title="No webhook endpoints">
              {admin
                ? "Add one to get notified when an incident opens or resolves."
                : "An admin can add one."}
            </EmptyState>
          ) : (
            <ul className={styles.steps} style={{ gap: "0.75rem" }} data-testid="webhook-list">
              {data.endpoints.map((e) => (
                <WebhookRow key={e.id} endpoint={e} admin={admin} onEdit={() => setEditing(e)} />
              ))}
            </ul>
          )
        }
      </Loadable>
    </Panel>
  );
}

function WebhookRow({
  endpoint: e,
  admin,
  onEdit,
}: {
  endpoint: WebhookEndpointView;
  admin: boolean;
  onEdit: () => void;
}) {
  const [armed, setArmed] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const test = useSend<void>(
    () => ({ method: "POST", url: `/api/webhooks/${e.id}/test` }),
    [["webhooks"]],
    () => setNotice("Test queued: the collector delivers it within seconds."),
  );
  const del = useSend<void>(() => ({ method: "DELETE", url: `/api/webhooks/${e.id}` }), [["webhooks"]]);
  return (
    <li style={{ display: "block" }} className="card">
      <div style={{ display: "flex", gap: "0.75rem", flexWrap: "wrap", alignItems: "baseline" }}>
        <strong>
          <Truncate text={e.name} max="16rem" />
        </strong>
        <span className="badge">{e.format}</span>
        <span className={`badge ${e.enabled ? "ok" : "pending"}`}>{e.enabled ? "enabled" : "disabled"}</span>
        <span className="muted small">{e.hasSecret ? "signed (HMAC)" : "unsigned"}</span>
        <Truncate text={e.url} max="26rem" mono />
      </div>
      <p className="small" style={{ margin: "0.3rem 0" }}>
        Last attempt:{" "}
        {e.lastAttempt ? (
          <>
            <span className={`badge ${e.lastAttempt.ok ? "ok" : "error"}`}>
              {e.lastAttempt.ok ? "delivered" : "failed"}
            </span>{" "}
            {e.lastAttempt.statusCode ?? ""} <Time iso={e.lastAttempt.at} relative />{" "}
            {e.lastAttempt.error ? <span className="error-text">{e.lastAttempt.error}</span> : null}
          </>
        ) : (
          <span className="muted">never</span>
        )}
      </p>
      <div className={styles.rowActions}>
        <button type="button" className="btn" disabled={test.isPending} onClick={() => test.mutate()}>
          Send test
        </button>
        <button type="button" className="btn" aria-expanded={showLog} onClick={() => setShowLog(!showLog)}>
          {showLog ? "Hide deliveries" : "Deliveries"}
        </button>
        {admin ? (
          <>
            <button type="button" className="btn" onClick={onEdit}>
              Edit
            </button>
            <ConfirmButton
              label="Delete"
              confirmLabel="Delete endpoint"
              armed={armed}
              setArmed={setArmed}
              disabled={del.isPending}
              onConfirm={() => del.mutate()}
            />
          </>
        ) : null}
        {notice ? (
          <span role="status" className="small">
            {notice}
          </span>
        ) : null}
      </div>
      <FormError error={test.error ?? del.error} />
      {showLog ? <DeliveryLog id={e.id} /> : null}
    </li>
  );
}

function DeliveryLog({ id }: { id: string }) {
  const [pages, setPages] = useState<DeliveryLogEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState<{ loading: boolean; error: string | null }>({
    loading: false,
    error: null,
  });
  const q = useApi<{ entries: DeliveryLogEntry[]; nextCursor: string | null }>(
    ["webhooks", id, "deliveries"],
    `/api/webhooks/${id}/deliveries?limit=25`,
    { refetchMs: 10_000 },
  );
  const loadMore = async (after: string) => {
    setMore({ loading: true, error: null });
    try {
      const r = await sendJsonGet(
        `/api/webhooks/${id}/deliveries?limit=25&cursor=${encodeURIComponent(after)}`,
      );
      setPages((p) => [...p, ...r.entries]);
      setCursor(r.nextCursor ?? "");
      setMore({ loading: false, error: null });
    } catch (e) {
      setMore({ loading: false, error: e instanceof Error ? e.message : String(e) });
    }
  };
  return (
    <Loadable q={q}>
      {(data) => {
        const rows = [...data.entries, ...pages.filter((p) => !data.entries.some((d) => d.id === p.id))];
        const next = cursor === null ? data.nextCursor : cursor || null;
        if (rows.length === 0) return <p className="muted small">No delivery attempts yet.</p>;
        return (
          <div className="table-wrap">
            <table data-testid="deliveries">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Response</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <Time iso={a.at} />
                    </td>
                    <td>{a.notification.event}</td>
                    <td>
                      <span className={`badge ${a.ok ? "ok" : "error"}`}>{a.ok ? "ok" : "failed"}</span>{" "}
                      <span className="muted small">{a.notification.status}</span>
                    </td>
                    <td className="mono">{a.statusCode ?? "–"}</td>
                    <td className="mono">{a.durationMs} ms</td>
                    <td>{a.error ? <Truncate text={a.error} max="20rem" /> : null}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {next ? (
              <div className="pager">
                <button
                  type="button"
                  className="btn"
                  disabled={more.loading}
                  onClick={() => void loadMore(next)}
                >
                  Older attempts
                </button>
              </div>
            ) : null}
            {more.error ? <p className="error-text">{more.error}</p> : null}
          </div>
        );
      }}
    </Loadable>
  );
}

async function sendJsonGet(url: string): Promise<{ entries: DeliveryLogEntry[]; nextCursor: string | null }> {
  const res = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
  const body = (await res.json()) as {
    entries: DeliveryLogEntry[];
    nextCursor: string | null;
    error?: string;
  };
  if (!res.ok) throw new Error(body.error ?? `${res.status}`);
  return body;
}

function WebhookForm({ initial, onDone }: { initial: WebhookEndpointView | null; onDone: () => void }) {
  const [name, setName] = useState(initial?.name ?? "");
  const [url, setUrl] = useState(initial?.url ?? "");
  const [format, setFormat] = useState(initial?.format ?? "generic");
  const [enabled, setEnabled] = useState(initial?.enabled ?? true);
  const [secret, setSecret] = useState("");
  const [removeSecret, setRemoveSecret] = useState(false);
  const [routingKey, setRoutingKey] = useState("");
  const save = useSend<Record<string, unknown>>(
    (body) =>
      initial
        ? { method: "PATCH", url: `/api/webhooks/${initial.id}`, body }
        : { method: "POST", url: "/api/webhooks", body },
    [["webhooks"]],
    onDone,
  );
  return (
    <form
      className={styles.form}
      aria-label={initial ? "Edit webhook endpoint" : "New webhook endpoint"}
      onSubmit={(e) => {
        e.preventDefault();
        const body: Record<string, unknown> = { name, url, format, enabled };
        // Secrets are write-only: empty keeps the stored one (or sets none on create).
        if (removeSecret) body.secret = null;
        else if (secret) body.secret = secret;
        if (routingKey) body.routingKey = routingKey;
        save.mutate(body);
      }}
    >
      <FormGrid>
        <Field label="Name" error={fieldError(save.error, "name")}>
          {(p) => (
            <input {...p} value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
          )}
        </Field>
        <Field label="URL" error={fieldError(save.error, "url")}>
          {(p) => (
            <input
              {...p}
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              required
              placeholder="https://hooks.example.com/…"
            />
          )}
        </Field>
        <Field label="Format" error={fieldError(save.error, "format")}>
          {(p) => (
            <select {...p} value={format} onChange={(e) => setFormat(e.target.value)}>
              {["generic", "slack", "pagerduty", "alertmanager"].map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field
          label="Signing secret (HMAC-SHA256)"
          error={fieldError(save.error, "secret")}
          hint={initial?.hasSecret ? "set; leave empty to keep it" : "optional, 16+ characters"}
        >
          {(p) => (
            <input
              {...p}
              type="password"
              autoComplete="new-password"
              value={secret}
              disabled={removeSecret}
              onChange={(e) => setSecret(e.target.value)}
            />
          )}
        </Field>
        {format === "pagerduty" ? (
          <Field
            label="PagerDuty routing key"
            error={fieldError(save.error, "routingKey")}
            hint={initial?.hasRoutingKey ? "set; leave empty to keep it" : "required"}
          >
            {(p) => (
              <input
                {...p}
                type="password"
                value={routingKey}
                onChange={(e) => setRoutingKey(e.target.value)}
              />
            )}
          </Field>
        ) : null}
        <div className={styles.field}>
          <span className={styles.hint}>&nbsp;</span>
          <label className={styles.inlineCheck}>
            <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> Enabled
          </label>
          {initial?.hasSecret ? (
            <label className={styles.inlineCheck}>
              <input
                type="checkbox"
                checked={removeSecret}
                onChange={(e) => setRemoveSecret(e.target.checked)}
              />{" "}
              Remove the secret
            </label>
          ) : null}
        </div>
      </FormGrid>
      <FormError error={save.error} />
      <Actions>
        <button type="submit" className="btn" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save endpoint"}
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </Actions>
    </form>
  );
}
