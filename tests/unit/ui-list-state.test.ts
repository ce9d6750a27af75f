import { describe, expect, test } from "vitest";

import { GROUP_STATES, GROUP_TYPES } from "../../lib/api/groups";
import { GROUP_SORTS } from "../../lib/db/queries/read/groups";
import {
  decodeListState,
  DEFAULT_LIST_STATE,
  encodeListState,
  LIST_SORTS,
  LIST_STATES,
  LIST_TYPES,
  listApiQuery,
  toggleSort,
  type GroupListState,
} from "../../components/group-list-state";

const decode = (q: string) => decodeListState(new URLSearchParams(q));

describe("group list state in the URL", () => {
  test("the client's lists match the API's", () => {
    expect(LIST_STATES).toEqual(GROUP_STATES);
    expect(LIST_TYPES).toEqual(GROUP_TYPES);
    expect(LIST_SORTS).toEqual(GROUP_SORTS);
  });

  test.each([
    { label: "empty: defaults", q: "", expected: DEFAULT_LIST_STATE },
    {
      label: "everything given",
      q: "q=orders&state=Stable&type=classic&sort=name&order=desc&limit=100&cursor=abc",
      expected: {
        q: "orders",
        state: "Stable",
        type: "classic",
        sort: "name",
        order: "desc",
        limit: 100,
        cursor: "abc",
      },
    },
    {
      label: "a sort's default order",
      q: "sort=name",
      expected: { ...DEFAULT_LIST_STATE, sort: "name", order: "asc" },
    },
    {
      label: "unknown values fall back",
      q: "state=Bogus&type=x&sort=evil&order=sideways&limit=9999",
      expected: DEFAULT_LIST_STATE,
    },
    { label: "limit zero falls back", q: "limit=0", expected: DEFAULT_LIST_STATE },
  ])("decode: $label", ({ q, expected }) => {
    expect(decode(q)).toEqual(expected);
  });

  test("defaults are left out of the URL", () => {
    expect(encodeListState(DEFAULT_LIST_STATE).toString()).toBe("");
    expect(encodeListState({ ...DEFAULT_LIST_STATE, sort: "name", order: "asc" }).toString()).toBe(
      "sort=name",
    );
  });

  test("round trip, with characters that need encoding", () => {
    const s: GroupListState = {
      q: "a&b=c/ü %",
      state: "Empty",
      type: "consumer",
      sort: "rebalances24h",
      order: "asc",
      limit: 250,
      cursor: "eyJzIjoibGFnIn0",
    };
    expect(decode(encodeListState(s).toString())).toEqual(s);
  });

  test("the API query always says sort, order and limit", () => {
    expect(listApiQuery(DEFAULT_LIST_STATE)).toBe("sort=lag&order=desc&limit=50");
    expect(listApiQuery({ ...DEFAULT_LIST_STATE, q: "  x  ", state: "Dead" })).toBe(
      "q=x&state=Dead&sort=lag&order=desc&limit=50",
    );
  });

  test.each([
    {
      label: "same column flips",
      from: { sort: "lag", order: "desc" },
      click: "lag",
      expected: { sort: "lag", order: "asc" },
    },
    {
      label: "new measured column descends",
      from: { sort: "name", order: "asc" },
      click: "members",
      expected: { sort: "members", order: "desc" },
    },
    {
      label: "name ascends",
      from: { sort: "lag", order: "desc" },
      click: "name",
      expected: { sort: "name", order: "asc" },
    },
  ] as const)("toggleSort: $label, back to the first page", ({ from, click, expected }) => {
    const next = toggleSort({ ...DEFAULT_LIST_STATE, ...from, cursor: "c" }, click);
    expect({ sort: next.sort, order: next.order, cursor: next.cursor }).toEqual({
      ...expected,
      cursor: null,
    });
  });
});
