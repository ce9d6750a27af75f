import { PrismaPg } from "@prisma/adapter-pg";

import { env } from "../env.js";
import { PrismaClient } from "./generated/client";

// One Prisma client per process; in `next dev` hot reload would otherwise open a new pool
// on every change (create-t3-app's globalThis singleton).
const globalForPrisma = globalThis as unknown as { groupwatchPrisma?: PrismaClient };

export function createPrisma(connectionString: string): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 5 }) });
}

export function prisma(): PrismaClient {
  if (!globalForPrisma.groupwatchPrisma) {
    const url = env().DATABASE_URL;
    if (!url) {
      throw new Error(
        "DATABASE_URL is not set: start groupwatch with `npm run demo`/`npm start` (embedded database) or set it",
      );
    }
    globalForPrisma.groupwatchPrisma = createPrisma(url);
  }
  return globalForPrisma.groupwatchPrisma;
}

export type { Cluster, ClusterStatus, Prisma } from "./generated/client";
export type { PrismaClient };
