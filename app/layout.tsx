import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";

import { NavLinks } from "@/components/nav-links";
import { THEME_SCRIPT, ThemeToggle } from "@/components/theme-toggle";
import { layoutPrincipal } from "@/lib/auth/page";
import { roleAtLeast } from "@/lib/auth/roles";
import { UserMenu } from "@/lib/auth/user-menu";

import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "groupwatch",
  description: "Kafka consumer groups: state history, rebalance forensics, lag and alerts",
};

// Every page behind the proxy passes through here: layoutPrincipal() re-checks the account in
// the database, so a disabled or deleted user is sent to /login at their next page load.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const principal = await layoutPrincipal();
  return (
    // data-theme is set by THEME_SCRIPT before first paint, so React sees a changed attribute.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* A constant script (no user data): picks the theme before the first paint. */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <header className="topbar">
          <Link href="/" className="brand">
            groupwatch
          </Link>
          {principal ? <NavLinks admin={roleAtLeast(principal.role, "admin")} /> : null}
          <div className="topbar-end">
            <ThemeToggle />
            {principal ? <UserMenu principal={principal} /> : null}
          </div>
        </header>
        <Providers>
          <main>{children}</main>
        </Providers>
      </body>
    </html>
  );
}
