// npm run bench:api [-- --groups 2000 --days 30 --samples 200 --reseed]
// Seeds a database (groupwatch_bench on the local PostgreSQL, or BENCH_DATABASE_URL) with the
// history the collector would keep for N groups over D days at the default retention: raw lag
// every 5 s for the raw window, 1-minute buckets for the minute window, 1-hour buckets beyond,
// and a timeline of 4 rebalances per group per day (episodes, events, sessions, intervals).
// Then calls the API's route handlers (zod parsing, queries, JSON encoding; no HTTP socket)
// for random groups and prints p50/p95 per endpoint. The seed is reused across runs.
import pg from "pg";

import { DEFAULT_RETENTION } from "../lib/config/retention";

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : fallback;
};
const GROUPS = Number(arg("groups", "2000"));
const DAYS = Number(arg("days", "30"));
const SAMPLES = Number(arg("samples", "200"));
const POLL_S = 5;
const url = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/groupwatch_bench";
const CLUSTER = "bench";
const REBALANCES_PER_DAY = 4;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

async function ensureDatabase(): Promise<void> {
  const target = new URL(url);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const name = decodeURIComponent(target.pathname.slice(1));
  const { rowCount } = await c.query("select 1 from pg_database where datname = $1", [name]);
  if (!rowCount) await c.query(`create database "${name.replace(/"/g, '""')}"`);
  await c.end();
  const { execFileSync } = await import("node:child_process");
  execFileSync("npx", ["prisma", "migrate", "deploy"], {
    env: { ...process.env, DATABASE_URL: url, CHECKPOINT_DISABLE: "1" },
    stdio: "ignore",
  });
}

async function seed(c: pg.Client, now: Date): Promise<void> {
  const step = async (label: string, sql: string, params: unknown[]) => {
    const t = Date.now();
    const r = await c.query(sql, params);
    console.log(`  ${label}: ${r.rowCount ?? 0} rows in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  };
  await c.query("delete from cluster where name = $1", [CLUSTER]);
  const {
    rows: [cluster],
  } = await c.query<{ id: string }>(
    `insert into cluster (id, name, brokers, updated_at) values (gen_random_uuid(), $1, '{127.0.0.1:1}', now()) returning id`,
    [CLUSTER],
  );
  const id = cluster!.id;
  const rawS = DEFAULT_RETENTION.lagRawMs / 1000;
  const minuteS = DEFAULT_RETENTION.lagMinuteMs / 1000;
  const totalS = DAYS * 86400;
  // Four partitions per group: the history row carries each partition's offsets and lag.
  const parts = (lag: string) =>
    `jsonb_build_array(${[0, 1, 2, 3]
      .map(
        (p) => `jsonb_build_array('bench-topic', ${p}, '1000', (1000 + ${lag})::text, (${lag})::text, 2.5)`,
      )
      .join(", ")})`;
  await step(
    "consumer_group",
    `insert into consumer_group (cluster_id, group_key, group_id, type, state, protocol_type, member_count,
       total_lag, max_lag, unknown_lag_partitions, lag_seconds, members, partitions, first_seen_at, last_seen_at)
     select $1, 'bench-group-' || g, 'bench-group-' || g, 'classic', 'Stable', 'consumer', 2, g * 4, g, 0,
       2.5, '[]', '[]', $2::timestamptz - interval '${DAYS} days', $2
     from generate_series(1, $3::int) g`,
    [id, now, GROUPS],
  );
  await step(
    `lag_sample (every ${POLL_S} s for ${rawS / 3600} h)`,
    `insert into lag_sample (cluster_id, group_key, at, total_lag, max_lag, lag_seconds, unknown_partitions, partitions)
     select $1, 'bench-group-' || g, $2::timestamptz - i * interval '${POLL_S} seconds', 4 * ((g + i) % 500),
       (g + i) % 500, 2.5, 0, ${parts("((g + i) % 500)")}
     from generate_series(1, $3::int) g, generate_series(0, ${Math.floor(rawS / POLL_S) - 1}) i`,
    [id, now, GROUPS],
  );
  const rollup = (bucket: number, fromS: number, toS: number) =>
    step(
      `lag_rollup ${bucket} s (${(fromS / 3600).toFixed(0)} h .. ${(toS / 3600).toFixed(0)} h ago)`,
      `insert into lag_rollup (cluster_id, group_key, bucket_seconds, at, samples, total_lag_max, total_lag_last,
         max_lag, lag_seconds_max, partitions)
       select $1, 'bench-group-' || g, ${bucket},
         to_timestamp(floor(extract(epoch from $2::timestamptz) / ${bucket}) * ${bucket}) - i * interval '${bucket} seconds',
         ${bucket / POLL_S}, 4 * ((g + i) % 700), 4 * ((g + i) % 600), (g + i) % 700, 3.5,
         jsonb_build_object(${[0, 1, 2, 3].map((p) => `'bench-topic:${p}', jsonb_build_array(((g + i) % 700)::text, 3.5)`).join(", ")})
       from generate_series(1, $3::int) g,
         generate_series(${Math.ceil(fromS / bucket)}, ${Math.floor(toS / bucket)}) i`,
      [id, now, GROUPS],
    );
  await rollup(60, rawS, Math.min(minuteS, totalS));
  if (totalS > minuteS) await rollup(3600, minuteS, totalS);
  const episodes = DAYS * REBALANCES_PER_DAY;
  const every = 86400 / REBALANCES_PER_DAY;
  const at = `$2::timestamptz - (e * ${every} + (g % ${every})) * interval '1 second'`;
  await step(
    `rebalance_episode (${REBALANCES_PER_DAY}/group/day)`,
    `insert into rebalance_episode (cluster_id, key_hash, group_key, group_id, started_after, detected_at, ended_by,
       observed_in_progress, rebalance, cause_kinds, causes, members_before, members_after, partitions_moved)
     select $1, md5('ep' || g || ':' || e) || '00000000', 'bench-group-' || g, 'bench-group-' || g,
       ${at} - interval '5 seconds', ${at}, ${at} + interval '5 seconds', true, true, '{member-crashed}',
       '[{"kind":"member-crashed","memberId":"m-2","confidence":"likely","evidence":"seeded"}]',
       '["m-1","m-2"]', '["m-1","m-3"]', '[{"topic":"bench-topic","partition":1,"from":"m-2","to":"m-3"}]'
     from generate_series(1, $3::int) g, generate_series(0, ${episodes - 1}) e`,
    [id, now, GROUPS],
  );
  await step(
    "group_event (3 per rebalance)",
    `insert into group_event (cluster_id, key_hash, group_key, group_id, at, kind, member_id, details)
     select $1, md5('ev' || g || ':' || e || ':' || k) || '00000000', 'bench-group-' || g, 'bench-group-' || g,
       ${at} + k * interval '1 second', (array['member-left','member-joined','state-changed'])[k + 1],
       'm-' || k, '{"seeded":true}'
     from generate_series(1, $3::int) g, generate_series(0, ${episodes - 1}) e, generate_series(0, 2) k`,
    [id, now, GROUPS],
  );
  await step(
    "group_state_interval (2 per rebalance)",
    `insert into group_state_interval (cluster_id, key_hash, group_key, state, "from", "to")
     select $1, md5('iv' || g || ':' || e || ':' || k) || '00000000', 'bench-group-' || g,
       (array['PreparingRebalance','Stable'])[k + 1], ${at} + k * interval '5 seconds',
       case when k = 0 then ${at} + interval '5 seconds' when e = 0 then null
         else ${at} + interval '${every} seconds' end
     from generate_series(1, $3::int) g, generate_series(0, ${episodes - 1}) e, generate_series(0, 1) k`,
    [id, now, GROUPS],
  );
  await step(
    "member_session (1 per rebalance)",
    `insert into member_session (cluster_id, key_hash, group_key, member_id, client_id, client_host, joined_at,
       joined_observed, left_at, left_how, assignment)
     select $1, md5('ms' || g || ':' || e) || '00000000', 'bench-group-' || g, 'm-' || e, 'client-' || e,
       '/10.0.0.1', ${at}, true, ${at} + interval '${every} seconds', 'crashed',
       '[{"topic":"bench-topic","partitions":[0,1]}]'
     from generate_series(1, $3::int) g, generate_series(0, ${episodes - 1}) e`,
    [id, now, GROUPS],
  );
  await c.query("analyze");
  await c.query(
    `insert into cluster_status (cluster_id, state, last_poll_at, last_poll_duration_ms, updated_at)
     values ($1, 'ok', $2, 10, now())`,
    [id, now],
  );
}

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function main() {
  await ensureDatabase();
  process.env.DATABASE_URL = url;
  process.env.LOG_LEVEL ??= "warn";
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query<{ n: string; newest: Date | null }>(
    `select count(*)::text as n, max(g.last_seen_at) as newest from consumer_group g join cluster c on c.id = g.cluster_id
     where c.name = $1`,
    [CLUSTER],
  );
  let now = rows[0]?.newest ?? null;
  const reseed = argv.includes("--reseed") || Number(rows[0]?.n ?? 0) !== GROUPS || now === null;
  if (reseed) {
    now = new Date();
    console.log(`seeding ${GROUPS} groups x ${DAYS} days into ${new URL(url).pathname.slice(1)}:`);
    const t = Date.now();
    await seed(c, now);
    console.log(`  seeded in ${((Date.now() - t) / 1000).toFixed(0)} s`);
  } else {
    console.log(
      `reusing the seed (${GROUPS} groups, newest sample ${now!.toISOString()}); --reseed to rebuild`,
    );
  }
  const sizes = await c.query<{ relname: string; n: string; size: string }>(
    `select relname, n_live_tup::text as n, pg_size_pretty(pg_total_relation_size(relid)) as size
     from pg_stat_user_tables where relname in ('lag_sample','lag_rollup','rebalance_episode','group_event',
       'group_state_interval','member_session') order by relname`,
  );
  for (const r of sizes.rows) console.log(`  ${r.relname}: ~${r.n} rows, ${r.size}`);
  await c.end();

  // The routes require a session: a viewer user of the bench database, and its cookie.
  process.env.NEXTAUTH_SECRET ??= "bench-api-session-secret";
  const { encodeSession } = await import("../lib/auth/session");
  const { authSecret } = await import("../lib/auth/secret");
  const { prisma } = await import("../lib/db/client");
  await prisma().appUser.upsert({
    where: { username: "bench-viewer" },
    create: { username: "bench-viewer", role: "viewer", provider: "credentials" },
    update: {},
  });
  const cookie = `next-auth.session-token=${await encodeSession({ username: "bench-viewer", role: "viewer" }, authSecret())}`;

  const end = now!;
  const from = new Date(end.getTime() - 86_400_000).toISOString();
  const to = end.toISOString();
  const load = async (p: string) => (await import(p)) as { GET: Handler };
  const routes = {
    timeline: await load("../app/api/clusters/[cluster]/groups/[group]/timeline/route"),
    lag: await load("../app/api/clusters/[cluster]/groups/[group]/lag/route"),
    group: await load("../app/api/clusters/[cluster]/groups/[group]/route"),
    groups: await load("../app/api/clusters/[cluster]/groups/route"),
    forensics: await load("../app/api/clusters/[cluster]/forensics/route"),
  };
  const call = async (h: { GET: Handler }, path: string, params: Record<string, string>) => {
    const t = performance.now();
    const res = await h.GET(new Request(`http://bench${path}`, { headers: { cookie } }), {
      params: Promise.resolve(params),
    });
    const body = await res.text();
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 300)}`);
    return { ms, bytes: body.length };
  };
  const cases: { name: string; run: (g: string) => Promise<{ ms: number; bytes: number }> }[] = [
    {
      name: "group timeline, 24 h",
      run: (g) =>
        call(routes.timeline, `/api/clusters/${CLUSTER}/groups/${g}/timeline?from=${from}&to=${to}`, {
          cluster: CLUSTER,
          group: g,
        }),
    },
    {
      name: "group lag history, 24 h",
      run: (g) =>
        call(routes.lag, `/api/clusters/${CLUSTER}/groups/${g}/lag?from=${from}&to=${to}`, {
          cluster: CLUSTER,
          group: g,
        }),
    },
    {
      name: "group lag history, 24 h, per partition",
      run: (g) =>
        call(routes.lag, `/api/clusters/${CLUSTER}/groups/${g}/lag?from=${from}&to=${to}&partitions=true`, {
          cluster: CLUSTER,
          group: g,
        }),
    },
    {
      name: "group lag history, 30 d",
      run: (g) =>
        call(
          routes.lag,
          `/api/clusters/${CLUSTER}/groups/${g}/lag?from=${new Date(end.getTime() - DAYS * 86_400_000).toISOString()}&to=${to}`,
          { cluster: CLUSTER, group: g },
        ),
    },
    {
      name: "group detail",
      run: (g) => call(routes.group, `/api/clusters/${CLUSTER}/groups/${g}`, { cluster: CLUSTER, group: g }),
    },
  ];
  const n = Math.max(1, SAMPLES);
  console.log(`\nper call, ${n} random groups each (ms; route handler incl. validation and JSON):`);
  console.log("| endpoint | p50 | p95 | max | avg response |");
  console.log("|---|---|---|---|---|");
  for (const cs of cases) {
    await cs.run("bench-group-1"); // warm-up: module init, connection pool
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const r = await cs.run(`bench-group-${1 + Math.floor(Math.random() * GROUPS)}`);
      times.push(r.ms);
      bytes += r.bytes;
    }
    console.log(
      `| ${cs.name} | ${pct(times, 0.5).toFixed(1)} | ${pct(times, 0.95).toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${(bytes / n / 1024).toFixed(1)} KiB |`,
    );
  }
  const cluster: { name: string; path: string; h: Handler }[] = [
    {
      name: "groups page, sort by lag",
      path: `/api/clusters/${CLUSTER}/groups?sort=lag&order=desc&limit=50`,
      h: routes.groups.GET,
    },
    {
      name: "groups page, sort by rebalances 24 h",
      path: `/api/clusters/${CLUSTER}/groups?sort=rebalances24h&order=desc&limit=50`,
      h: routes.groups.GET,
    },
    {
      name: "forensics, whole cluster, 1 h",
      path: `/api/clusters/${CLUSTER}/forensics?from=${new Date(end.getTime() - 3_600_000).toISOString()}&to=${to}`,
      h: routes.forensics.GET,
    },
  ];
  for (const cs of cluster) {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < Math.min(n, 30) + 1; i++) {
      const r = await call({ GET: cs.h }, cs.path, { cluster: CLUSTER });
      if (i > 0) times.push(r.ms);
      bytes = r.bytes;
    }
    console.log(
      `| ${cs.name} | ${pct(times, 0.5).toFixed(1)} | ${pct(times, 0.95).toFixed(1)} | ${Math.max(...times).toFixed(1)} | ${(bytes / 1024).toFixed(1)} KiB |`,
    );
  }
  process.exit(0);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
