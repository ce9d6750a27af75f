// Where to go after signing in: only a path on this site ("/x", not "//host" or "https://..."),
// so a crafted link can't bounce a fresh session to another origin. Pure.

export function safeCallbackPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  if (value.startsWith("/login") || value.startsWith("/api/auth")) return "/";
  return value;
}
