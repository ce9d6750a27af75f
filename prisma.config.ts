import { PrismaPg } from "@prisma/adapter-pg";
import type { PrismaConfig } from "prisma";

// Prisma 6 with the JS engine and the pg driver adapter: no native engine download, so
// generate and migrate work on machines that reach only the npm registry.
export default {
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  adapter() {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("DATABASE_URL is not set");
    return Promise.resolve(new PrismaPg({ connectionString }));
  },
} satisfies PrismaConfig;
