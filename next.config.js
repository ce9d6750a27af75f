// Validates the environment at build and start (the same module the collector uses).
import { env } from "./lib/env.js";

env();

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Server-only packages with native-ish or dynamic requires stay out of the bundle.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "pino", "kafkajs"],
  // The dev-mode indicator covers table cells in screenshots; the app has its own status UI.
  devIndicators: false,
};

export default nextConfig;
