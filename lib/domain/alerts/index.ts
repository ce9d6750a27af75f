// Alerts: the pure decision core (no I/O). Consumer status (Burrow's rules), rule config and
// overrides, rule evaluation per group, incident decisions and the notification document.

export * from "./consumer-status";
export * from "./config";
export * from "./glob";
export * from "./incidents";
export * from "./notification";
export * from "./rules";
