import { describe, expect, test } from "vitest";

import {
  buildNotification,
  decideIncidents,
  type Decision,
  type Finding,
  type OpenIncident,
  type RuleKind,
} from "../../lib/domain/alerts";

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;

const f = (kind: RuleKind, firing: boolean, details: Finding["details"] = { episodes: 4 }): Finding => ({
  kind,
  firing,
  severity: "warning",
  summary: firing ? "4 rebalances in 10 min" : "1 rebalance in 10 min",
  details,
});

const inc = (o: Partial<OpenIncident> = {}): OpenIncident => ({
  id: "inc-1",
  kind: "storm",
  openedAt: NOW - 2 * HOUR,
  lastNotifiedAt: NOW - 10 * 60_000,
  sequence: 1,
  details: { episodes: 4 },
  ...o,
});

const decide = (
  open: OpenIncident[],
  findings: Finding[],
  { renotifyMs = HOUR, silenced = [] as RuleKind[], now = NOW } = {},
) => decideIncidents(open, findings, { now, renotifyMs, silenced: (k) => silenced.includes(k) });

const brief = (ds: Decision[]) =>
  ds.map((d) => ({
    type: d.type,
    kind: d.kind,
    notify: d.notify,
    event: d.event,
    sequence: d.sequence,
  }));

describe("decideIncidents", () => {
  test.each([
    {
      label: "first firing opens and triggers",
      open: [],
      findings: [f("storm", true)],
      opts: {},
      expected: [{ type: "open", kind: "storm", notify: true, event: "trigger", sequence: 1 }],
    },
    {
      label: "first firing under an active silence: opened, recorded, not notified",
      open: [],
      findings: [f("storm", true)],
      opts: { silenced: ["storm"] as RuleKind[] },
      expected: [{ type: "open", kind: "storm", notify: false, event: null, sequence: 0 }],
    },
    {
      label: "a silence of another kind does not mute",
      open: [],
      findings: [f("storm", true)],
      opts: { silenced: ["lag"] as RuleKind[] },
      expected: [{ type: "open", kind: "storm", notify: true, event: "trigger", sequence: 1 }],
    },
    {
      label: "not firing and nothing open: nothing to do",
      open: [],
      findings: [f("storm", false)],
      opts: {},
      expected: [],
    },
    {
      label: "still firing, same details, renotify not due: nothing",
      open: [inc({ lastNotifiedAt: NOW - HOUR + 1 })],
      findings: [f("storm", true)],
      opts: {},
      expected: [],
    },
    {
      label: "renotify exactly at the interval",
      open: [inc({ lastNotifiedAt: NOW - HOUR, sequence: 2 })],
      findings: [f("storm", true)],
      opts: {},
      expected: [{ type: "update", kind: "storm", notify: true, event: "renotify", sequence: 3 }],
    },
    {
      label: "renotifyMs 0: never renotified, even after days",
      open: [inc({ lastNotifiedAt: NOW - 72 * HOUR })],
      findings: [f("storm", true)],
      opts: { renotifyMs: 0 },
      expected: [],
    },
    {
      label: "details changed, renotify not due: recorded without notifying",
      open: [inc()],
      findings: [f("storm", true, { episodes: 5 })],
      opts: {},
      expected: [{ type: "update", kind: "storm", notify: false, event: null, sequence: 1 }],
    },
    {
      label: "renotify due while silenced: nothing sent, nothing changed",
      open: [inc({ lastNotifiedAt: NOW - 3 * HOUR })],
      findings: [f("storm", true)],
      opts: { silenced: ["storm"] as RuleKind[] },
      expected: [],
    },
    {
      label: "details changed while silenced: recorded, not notified",
      open: [inc({ lastNotifiedAt: NOW - 3 * HOUR })],
      findings: [f("storm", true, { episodes: 9 })],
      opts: { silenced: ["storm"] as RuleKind[] },
      expected: [{ type: "update", kind: "storm", notify: false, event: null, sequence: 1 }],
    },
    {
      label: "silence ended, incident opened under it (never notified): triggers now",
      open: [inc({ lastNotifiedAt: null, sequence: 0, openedAt: NOW - 60_000 })],
      findings: [f("storm", true)],
      opts: {},
      expected: [{ type: "update", kind: "storm", notify: true, event: "trigger", sequence: 1 }],
    },
    {
      label: "silence ended, notified before it: waits for the next renotify",
      open: [inc({ lastNotifiedAt: NOW - 30 * 60_000 })],
      findings: [f("storm", true)],
      opts: {},
      expected: [],
    },
    {
      label: "no longer firing: resolves and notifies",
      open: [inc({ sequence: 2 })],
      findings: [f("storm", false)],
      opts: {},
      expected: [{ type: "resolve", kind: "storm", notify: true, event: "resolve", sequence: 3 }],
    },
    {
      label: "resolve of an incident nobody was told about: quiet",
      open: [inc({ sequence: 0, lastNotifiedAt: null })],
      findings: [f("storm", false)],
      opts: {},
      expected: [{ type: "resolve", kind: "storm", notify: false, event: null, sequence: 0 }],
    },
    {
      label: "resolve under a silence of an incident already notified: still sent (no stranded alert)",
      open: [inc({ sequence: 1 })],
      findings: [f("storm", false)],
      opts: { silenced: ["storm"] as RuleKind[] },
      expected: [{ type: "resolve", kind: "storm", notify: true, event: "resolve", sequence: 2 }],
    },
    {
      label: "a kind without a finding is left alone",
      open: [inc()],
      findings: [f("lag", false)],
      opts: {},
      expected: [],
    },
    {
      label: "kinds are independent: one resolves, another opens",
      open: [inc()],
      findings: [f("storm", false), f("lag", true)],
      opts: {},
      expected: [
        { type: "resolve", kind: "storm", notify: true, event: "resolve", sequence: 2 },
        { type: "open", kind: "lag", notify: true, event: "trigger", sequence: 1 },
      ],
    },
    {
      label: "a duplicate open incident of the same kind is closed; the oldest is kept",
      open: [inc({ id: "newer", openedAt: NOW - HOUR }), inc({ id: "older", openedAt: NOW - 2 * HOUR })],
      findings: [f("storm", true)],
      opts: {},
      expected: [{ type: "resolve", kind: "storm", notify: true, event: "resolve", sequence: 2 }],
    },
  ])("$label", ({ open, findings, opts, expected }) => {
    expect(brief(decide(open, findings, opts))).toEqual(expected);
  });

  test("the duplicate resolved is the newer one", () => {
    const ds = decide(
      [inc({ id: "newer", openedAt: NOW - HOUR }), inc({ id: "older", openedAt: NOW - 2 * HOUR })],
      [f("storm", false)],
    );
    expect(ds.map((d) => (d.type === "open" ? null : d.incidentId))).toEqual(["newer", "older"]);
  });

  test("an open decision carries the finding; ids come from the caller", () => {
    const [d] = decide([], [{ ...f("storm", true), severity: "critical" }]);
    expect(d).toEqual({
      type: "open",
      kind: "storm",
      severity: "critical",
      summary: "4 rebalances in 10 min",
      details: { episodes: 4 },
      openedAt: NOW,
      notify: true,
      event: "trigger",
      sequence: 1,
      silenced: false,
    });
    expect(d).not.toHaveProperty("incidentId");
  });

  test("a change of severity or summary is an update even with equal details", () => {
    const ds = decide(
      [inc({ severity: "warning", summary: "4 rebalances in 10 min" })],
      [{ ...f("storm", true), severity: "critical" }],
    );
    expect(ds).toMatchObject([
      { type: "update", incidentId: "inc-1", detailsChanged: true, severity: "critical" },
    ]);
    expect(
      decide([inc({ severity: "warning", summary: "4 rebalances in 10 min" })], [f("storm", true)]),
    ).toEqual([]);
  });

  test("details compare by value, not key order", () => {
    expect(
      decide([inc({ details: { a: 1, b: "x", c: null } })], [f("storm", true, { c: null, b: "x", a: 1 })]),
    ).toEqual([]);
  });

  test("resolve carries the resolve time and the latest numbers", () => {
    const [d] = decide([inc()], [f("storm", false, { episodes: 1 })]);
    expect(d).toMatchObject({
      type: "resolve",
      resolvedAt: NOW,
      openedAt: NOW - 2 * HOUR,
      details: { episodes: 1 },
    });
  });
});

describe("buildNotification", () => {
  const cluster = { id: "c-uuid", name: "prod eu/1" };

  test("trigger: document, summary prefixed with the group, links encoded", () => {
    const [d] = decide([], [f("storm", true)]);
    const n = buildNotification({
      decision: d!,
      incidentId: "inc-9",
      cluster,
      groupId: "orders/v2?x=1&y#z",
      now: NOW,
      linkBase: "https://gw.example.com/",
    });
    const group = "https://gw.example.com/clusters/prod%20eu%2F1/groups/orders%2Fv2%3Fx%3D1%26y%23z";
    expect(n).toEqual({
      version: 1,
      event: "trigger",
      incidentId: "inc-9",
      sequence: 1,
      rule: "storm",
      severity: "warning",
      cluster: { id: "c-uuid", name: "prod eu/1" },
      group: { id: "orders/v2?x=1&y#z" },
      summary: "orders/v2?x=1&y#z: 4 rebalances in 10 min",
      openedAt: "2025-01-15T12:00:00.000Z",
      resolvedAt: null,
      at: "2025-01-15T12:00:00.000Z",
      details: { episodes: 4 },
      links: {
        group,
        timeline: `${group}?from=2025-01-15T11:45:00.000Z&to=2025-01-15T12:15:00.000Z`,
      },
    });
  });

  test("resolve: resolvedAt set, timeline spans openedAt - 15 min .. resolvedAt + 15 min", () => {
    const [d] = decide([inc({ sequence: 3 })], [f("storm", false)]);
    const n = buildNotification({ decision: d!, cluster, groupId: "orders", now: NOW, linkBase: "" });
    expect(n).toMatchObject({
      event: "resolve",
      incidentId: "inc-1",
      sequence: 4,
      resolvedAt: "2025-01-15T12:00:00.000Z",
      openedAt: "2025-01-15T10:00:00.000Z",
      summary: "orders: resolved, 1 rebalance in 10 min",
    });
    expect(n.links).toEqual({
      group: "/clusters/prod%20eu%2F1/groups/orders",
      timeline:
        "/clusters/prod%20eu%2F1/groups/orders?from=2025-01-15T09:45:00.000Z&to=2025-01-15T12:15:00.000Z",
    });
  });

  test("renotify: sequence from the decision unless given; timeline ends at now + 15 min", () => {
    const [d] = decide([inc({ lastNotifiedAt: NOW - HOUR, sequence: 2 })], [f("storm", true)]);
    const n = buildNotification({ decision: d!, cluster, groupId: "g", now: NOW, linkBase: "" });
    expect(n).toMatchObject({ event: "renotify", sequence: 3, resolvedAt: null });
    expect(n.links.timeline).toMatch(/from=2025-01-15T09:45:00.000Z&to=2025-01-15T12:15:00.000Z$/);
    expect(
      buildNotification({ decision: d!, sequence: 7, cluster, groupId: "g", now: NOW, linkBase: "" })
        .sequence,
    ).toBe(7);
  });

  test("an open decision without the new incident's id is a programming error", () => {
    const [d] = decide([], [f("storm", true)]);
    expect(() => buildNotification({ decision: d!, cluster, groupId: "g", now: NOW, linkBase: "" })).toThrow(
      /needs the new incident's id/,
    );
  });

  test("the document is JSON-serializable as is", () => {
    const [d] = decide(
      [],
      [f("lag", true, { totalLag: "9223372036854775000", lagSeconds: null, breached: "seconds" })],
    );
    const n = buildNotification({
      decision: d!,
      incidentId: "i",
      cluster,
      groupId: "g",
      now: NOW,
      linkBase: "",
    });
    expect(JSON.parse(JSON.stringify(n))).toEqual(n);
    expect(n.details.totalLag).toBe("9223372036854775000");
  });
});
