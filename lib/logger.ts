import pino from "pino";

import { env } from "./env.js";

// JSON logs on stdout. Secrets never reach a log line: the redact list is the last guard,
// the first is never passing them to the logger.
export const logger = pino({
  level: env().LOG_LEVEL,
  base: { pid: process.pid },
  redact: {
    paths: ["*.password", "*.saslPassword", "*.key", "sasl.password", "ssl.key"],
    censor: "[redacted]",
  },
});

export type Logger = typeof logger;
