import fs from "node:fs";
import path from "node:path";

import { describe, expect, test } from "vitest";

import {
  parseAssignment,
  parseMembers,
  parseOffsets,
  parseState,
  parseTables,
  type MemberRow,
  type Notice,
  type OffsetRow,
  type StateRow,
} from "../fixtures/kafka-tool";

// Real outputs of Kafka's ConsumerGroupCommand (`scripts/kafka.sh consumer-groups --describe ...`)
// captured from 4.4.0 and 3.9.2 brokers, stdout and stderr as separate files.
const fixtureDir = path.resolve(import.meta.dirname, "../fixtures/kafka-tool-output");
function captured(version: string, name: string): [string, string] {
  const read = (stream: string) =>
    fs.readFileSync(path.join(fixtureDir, version, `${name}.${stream}.txt`), "utf8");
  return [read("stdout"), read("stderr")];
}

const notice = (kind: Notice["kind"], group: string | null): unknown =>
  expect.objectContaining({ kind, group });

describe("parseOffsets (--describe)", () => {
  test.each<{
    label: string;
    version: string;
    file: string;
    rows: Partial<OffsetRow>[];
    notices?: unknown[];
  }>([
    {
      label: "4.4 classic group, static + dynamic member, two topics",
      version: "4.4.0",
      file: "offsets-classic-two-members",
      rows: [
        {
          group: "gwcap-static-asmg",
          topic: "gwcap-orders-asmg",
          partition: 0,
          currentOffset: 50n,
          logEndOffset: 50n,
          lag: 0n,
          consumerId: "cap-dynamic-b-5b64d04c-ba93-4911-b173-04996bf88c16",
          host: "/127.0.0.1",
          clientId: "cap-dynamic-b",
        },
        { topic: "gwcap-orders-asmg", partition: 2, currentOffset: null, logEndOffset: 0n, lag: null },
        {
          topic: "gwcap-audit-asmg",
          partition: 0,
          consumerId: "inst-a-674465e3-cef5-446c-b9cb-ce0ca56d3ed4",
        },
        { topic: "gwcap-orders-asmg", partition: 1, clientId: "cap-static-a" },
      ],
      notices: [],
    },
    {
      label: "4.4 consumer-protocol group (short member ids)",
      version: "4.4.0",
      file: "offsets-consumer-protocol",
      rows: [
        { partition: 1, consumerId: "oQ1QjwykT5KXc2KI133heg", clientId: "cap-kip848-e" },
        { partition: 2 },
        { topic: "gwcap-audit-asmg", partition: 0 },
        { partition: 0, currentOffset: 50n, lag: 0n, consumerId: "1wSIdqBQQZK6nEW5HvIcbQ" },
      ],
    },
    {
      label: "4.4 empty group: committed offsets, no owner, notice on stderr",
      version: "4.4.0",
      file: "offsets-empty",
      rows: [{ group: "gwcap-empty-asmg", currentOffset: 50n, consumerId: "-", host: "-", clientId: "-" }],
      notices: [notice("no-active-members", "gwcap-empty-asmg")],
    },
    {
      label: "4.4 two groups, tables separated by a blank line",
      version: "4.4.0",
      file: "offsets-two-groups",
      rows: [
        { group: "gwcap-empty-asmg" },
        { group: "gwcap-static-asmg" },
        { group: "gwcap-static-asmg" },
        { group: "gwcap-static-asmg" },
        { group: "gwcap-static-asmg" },
      ],
      notices: [notice("no-active-members", "gwcap-empty-asmg")],
    },
    {
      label: "4.4 rebalancing group",
      version: "4.4.0",
      file: "offsets-rebalancing",
      rows: [{ partition: 0, clientId: "cap-slow-f" }, { partition: 1 }, { partition: 2 }],
      notices: [notice("rebalancing", "gwcap-rebalancing-asmg")],
    },
    {
      label: "4.4 missing group: error on stdout, stack trace on stderr",
      version: "4.4.0",
      file: "offsets-missing-group",
      rows: [],
      notices: [notice("not-found", "gwcap-missing-asmg")],
    },
    {
      label: "3.9 classic group",
      version: "3.9.2",
      file: "offsets-classic-two-members",
      rows: [
        { partition: 0, consumerId: "cap-dynamic-b-0b340407-82fd-4914-aac1-51f0db980751" },
        { partition: 2 },
        { topic: "gwcap-audit-iriv" },
        { partition: 1, currentOffset: 50n, logEndOffset: 50n, lag: 0n, clientId: "cap-static-a" },
      ],
      notices: [],
    },
    {
      label: "3.9 rebalancing group: no owners while rebalancing",
      version: "3.9.2",
      file: "offsets-rebalancing",
      rows: [{ group: "gwcap-rebalancing-iriv", partition: 1, consumerId: "-" }],
      notices: [notice("rebalancing", "gwcap-rebalancing-iriv")],
    },
    {
      label: "3.9 --all-groups: a header per group and no blank line between tables",
      version: "3.9.2",
      file: "offsets-all-groups",
      rows: [
        { group: "gwcap-empty-iriv" },
        { group: "gwcap-rebalancing-iriv" },
        { group: "gwcap-static-iriv" },
        { group: "gwcap-static-iriv" },
        { group: "gwcap-static-iriv" },
        { group: "gwcap-static-iriv" },
      ],
      notices: [
        notice("no-active-members", "gwcap-empty-iriv"),
        notice("rebalancing", "gwcap-rebalancing-iriv"),
      ],
    },
    {
      label: "3.9 missing group",
      version: "3.9.2",
      file: "offsets-missing-group",
      rows: [],
      notices: [notice("not-found", "gwcap-missing-iriv")],
    },
  ])("$label", ({ version, file, rows, notices }) => {
    const result = parseOffsets(...captured(version, file));
    expect(result.rows).toHaveLength(rows.length);
    rows.forEach((r, i) => expect(result.rows[i]).toMatchObject(r));
    if (notices) expect(result.notices).toEqual(notices);
  });

  test("values wider than their column (offsets > 15 digits) stay in their columns", () => {
    const stdout = [
      "",
      "GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID     HOST            CLIENT-ID",
      "g               t               0          12345678901234567 12345678901234569 2               -               -               -",
      "g               t               1          -               98765432109876543 -               m-1             /10.0.0.1       c",
    ].join("\n");
    expect(parseOffsets(stdout).rows).toEqual([
      {
        group: "g",
        topic: "t",
        partition: 0,
        currentOffset: 12345678901234567n,
        logEndOffset: 12345678901234569n,
        lag: 2n,
        consumerId: "-",
        host: "-",
        clientId: "-",
      },
      {
        group: "g",
        topic: "t",
        partition: 1,
        currentOffset: null,
        logEndOffset: 98765432109876543n,
        lag: null,
        consumerId: "m-1",
        host: "/10.0.0.1",
        clientId: "c",
      },
    ]);
  });

  test("--offsets --verbose adds LEADER-EPOCH", () => {
    const stdout = [
      "",
      "GROUP           TOPIC           PARTITION  LEADER-EPOCH    CURRENT-OFFSET  LOG-END-OFFSET  LAG             CONSUMER-ID            HOST            CLIENT-ID",
      "gwj-g1          gwj-manual-2076 2          0               100             100             0               WlkjTWtTTlipXtqMwe01kQ /127.0.0.1      cli-b",
    ].join("\n");
    expect(parseOffsets(stdout).rows[0]).toMatchObject({ leaderEpoch: 0, currentOffset: 100n, lag: 0n });
  });
});

describe("parseMembers (--describe --members --verbose)", () => {
  test.each<{
    label: string;
    version: string;
    file: string;
    rows: Partial<MemberRow>[];
    notices?: unknown[];
  }>([
    {
      label: "4.4 classic: static member next to a dynamic one (empty GROUP-INSTANCE-ID)",
      version: "4.4.0",
      file: "members-classic-static-and-dynamic",
      rows: [
        {
          group: "gwcap-static-asmg",
          consumerId: "cap-dynamic-b-5b64d04c-ba93-4911-b173-04996bf88c16",
          groupInstanceId: "-",
          host: "/127.0.0.1",
          clientId: "cap-dynamic-b",
          partitions: 2,
          currentEpoch: null,
          assignment: [{ topic: "gwcap-orders-asmg", partitions: [0, 2] }],
          targetEpoch: null,
          targetAssignment: [],
          upgraded: null,
        },
        {
          consumerId: "inst-a-674465e3-cef5-446c-b9cb-ce0ca56d3ed4",
          groupInstanceId: "inst-a",
          clientId: "cap-static-a",
          assignment: [
            { topic: "gwcap-audit-asmg", partitions: [0] },
            { topic: "gwcap-orders-asmg", partitions: [1] },
          ],
        },
      ],
      notices: [],
    },
    {
      label: "4.4 without --verbose: no assignment columns",
      version: "4.4.0",
      file: "members-classic-short",
      rows: [
        { groupInstanceId: "-", partitions: 2, assignment: null, targetAssignment: null },
        { groupInstanceId: "inst-a", partitions: 2, assignment: null },
      ],
    },
    {
      label: "4.4 consumer protocol: member epochs and target assignment",
      version: "4.4.0",
      file: "members-consumer-protocol",
      rows: [
        {
          consumerId: "oQ1QjwykT5KXc2KI133heg",
          groupInstanceId: "inst-e",
          currentEpoch: 3,
          assignment: [{ topic: "gwcap-orders-asmg", partitions: [1, 2] }],
          targetEpoch: 3,
          targetAssignment: [{ topic: "gwcap-orders-asmg", partitions: [1, 2] }],
        },
        {
          consumerId: "1wSIdqBQQZK6nEW5HvIcbQ",
          groupInstanceId: "-",
          currentEpoch: 3,
          targetAssignment: [
            { topic: "gwcap-audit-asmg", partitions: [0] },
            { topic: "gwcap-orders-asmg", partitions: [0] },
          ],
        },
      ],
    },
    {
      label: "4.4 empty group: header only",
      version: "4.4.0",
      file: "members-empty",
      rows: [],
      notices: [notice("no-active-members", "gwcap-empty-asmg")],
    },
    {
      label: "4.4 rebalancing: the new member has no assignment yet",
      version: "4.4.0",
      file: "members-rebalancing",
      rows: [
        { clientId: "cap-new-g", partitions: 0, assignment: [] },
        {
          clientId: "cap-slow-f",
          partitions: 3,
          assignment: [{ topic: "gwcap-orders-asmg", partitions: [0, 1, 2] }],
        },
      ],
      notices: [notice("rebalancing", "gwcap-rebalancing-asmg")],
    },
    {
      label: "4.4 two groups: an empty table, then a table with GROUP-INSTANCE-ID",
      version: "4.4.0",
      file: "members-two-groups",
      rows: [{ groupInstanceId: "-" }, { groupInstanceId: "inst-a" }],
    },
    {
      label: "3.9 classic: ASSIGNMENT lists partitions per topic without topic names",
      version: "3.9.2",
      file: "members-classic-static-and-dynamic",
      rows: [
        {
          groupInstanceId: "-",
          clientId: "cap-dynamic-b",
          partitions: 2,
          currentEpoch: null,
          assignment: [{ topic: null, partitions: [0, 2] }],
          targetAssignment: null,
        },
        {
          groupInstanceId: "inst-a",
          assignment: [
            { topic: null, partitions: [0] },
            { topic: null, partitions: [1] },
          ],
        },
      ],
    },
    {
      label: "3.9 --all-groups: empty, rebalancing (no GROUP-INSTANCE-ID column) and static groups",
      version: "3.9.2",
      file: "members-all-groups",
      rows: [
        { group: "gwcap-rebalancing-iriv", groupInstanceId: "-", partitions: 0, assignment: [] },
        { group: "gwcap-rebalancing-iriv", clientId: "cap-slow-f" },
        { group: "gwcap-static-iriv", groupInstanceId: "-" },
        { group: "gwcap-static-iriv", groupInstanceId: "inst-a" },
      ],
      notices: [
        notice("no-active-members", "gwcap-empty-iriv"),
        notice("rebalancing", "gwcap-rebalancing-iriv"),
      ],
    },
  ])("$label", ({ version, file, rows, notices }) => {
    const result = parseMembers(...captured(version, file));
    expect(result.rows).toHaveLength(rows.length);
    rows.forEach((r, i) => expect(result.rows[i]).toMatchObject(r));
    if (notices) expect(result.notices).toEqual(notices);
  });
});

describe("parseState (--describe --state --verbose)", () => {
  test.each<{
    label: string;
    version: string;
    file: string;
    rows: Partial<StateRow>[];
    notices?: unknown[];
  }>([
    {
      label: "4.4 classic Stable group: epochs '-'",
      version: "4.4.0",
      file: "state-classic",
      rows: [
        {
          group: "gwcap-static-asmg",
          coordinator: { host: "127.0.0.1", port: 9092, id: 1 },
          assignmentStrategy: "roundrobin",
          state: "Stable",
          groupEpoch: null,
          targetAssignmentEpoch: null,
          members: 2,
          groupProtocol: "classic",
        },
      ],
      notices: [],
    },
    {
      label: "4.4 without --verbose: no epoch columns",
      version: "4.4.0",
      file: "state-classic-short",
      rows: [{ state: "Stable", members: 2, groupProtocol: null }],
    },
    {
      label: "4.4 consumer-protocol group: server-side assignor and epochs",
      version: "4.4.0",
      file: "state-consumer-protocol",
      rows: [
        {
          assignmentStrategy: "uniform",
          state: "Stable",
          groupEpoch: 3,
          targetAssignmentEpoch: 3,
          members: 2,
          groupProtocol: "consumer",
        },
      ],
    },
    {
      label: "4.4 empty classic group: strategy '-'",
      version: "4.4.0",
      file: "state-empty",
      rows: [{ state: "Empty", assignmentStrategy: null, members: 0, groupProtocol: "classic" }],
      notices: [notice("no-active-members", "gwcap-empty-asmg")],
    },
    {
      label: "4.4 rebalancing",
      version: "4.4.0",
      file: "state-rebalancing",
      rows: [{ state: "PreparingRebalance", members: 2 }],
      notices: [notice("rebalancing", "gwcap-rebalancing-asmg")],
    },
    {
      label: "4.4 two groups",
      version: "4.4.0",
      file: "state-two-groups",
      rows: [
        { group: "gwcap-empty-asmg", state: "Empty" },
        { group: "gwcap-static-asmg", state: "Stable" },
      ],
    },
    {
      label: "4.4 missing group",
      version: "4.4.0",
      file: "state-missing-group",
      rows: [],
      notices: [notice("not-found", "gwcap-missing-asmg")],
    },
    {
      label: "3.9 --verbose has no epochs",
      version: "3.9.2",
      file: "state-classic",
      rows: [
        {
          coordinator: { host: "127.0.0.1", port: 9392, id: 1 },
          assignmentStrategy: "roundrobin",
          state: "Stable",
          groupEpoch: null,
          members: 2,
          groupProtocol: null,
        },
      ],
    },
    {
      label: "3.9 empty group: empty ASSIGNMENT-STRATEGY column",
      version: "3.9.2",
      file: "state-empty",
      rows: [{ assignmentStrategy: null, state: "Empty", members: 0 }],
    },
    {
      label: "3.9 rebalancing: STATE wider than its column",
      version: "3.9.2",
      file: "state-rebalancing",
      rows: [{ assignmentStrategy: null, state: "PreparingRebalance", members: 2 }],
      notices: [notice("rebalancing", "gwcap-rebalancing-iriv")],
    },
    {
      label: "3.9 --all-groups",
      version: "3.9.2",
      file: "state-all-groups",
      rows: [
        { group: "gwcap-empty-iriv", state: "Empty", members: 0 },
        { group: "gwcap-rebalancing-iriv", state: "PreparingRebalance", members: 2 },
        { group: "gwcap-static-iriv", state: "Stable", members: 2 },
      ],
    },
    {
      label: "3.9 missing group",
      version: "3.9.2",
      file: "state-missing-group",
      rows: [],
      notices: [notice("not-found", "gwcap-missing-iriv")],
    },
  ])("$label", ({ version, file, rows, notices }) => {
    const result = parseState(...captured(version, file));
    expect(result.rows).toHaveLength(rows.length);
    rows.forEach((r, i) => expect(result.rows[i]).toMatchObject(r));
    if (notices) expect(result.notices).toEqual(notices);
  });
});

describe("helpers", () => {
  test.each([
    { label: "4.x single topic", input: "t:0,1,2", want: [{ topic: "t", partitions: [0, 1, 2] }] },
    {
      label: "4.x two topics",
      input: "a.b:0;c-d:3,4",
      want: [
        { topic: "a.b", partitions: [0] },
        { topic: "c-d", partitions: [3, 4] },
      ],
    },
    {
      label: "3.9 partitions only",
      input: "(0,2), (1)",
      want: [
        { topic: null, partitions: [0, 2] },
        { topic: null, partitions: [1] },
      ],
    },
    { label: "missing", input: "-", want: [] },
    { label: "absent column", input: undefined, want: null },
  ])("parseAssignment: $label", ({ input, want }) => {
    expect(parseAssignment(input)).toEqual(want);
  });

  test("parseTables keeps multi-word headers and lines outside tables", () => {
    const { tables, other } = parseTables(
      "\nGROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS\n" +
        "g               127.0.0.1:9092  (1)       range                Stable               1\n\nsomething else\n",
    );
    expect(tables).toEqual([
      {
        headers: ["GROUP", "COORDINATOR (ID)", "ASSIGNMENT-STRATEGY", "STATE", "#MEMBERS"],
        rows: [
          {
            GROUP: "g",
            "COORDINATOR (ID)": "127.0.0.1:9092  (1)",
            "ASSIGNMENT-STRATEGY": "range",
            STATE: "Stable",
            "#MEMBERS": "1",
          },
        ],
      },
    ]);
    expect(other).toEqual(["something else"]);
  });
});
