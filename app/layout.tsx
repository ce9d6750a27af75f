import type { Metadata } from "next";
import type { ReactNode } from "react";

import { layoutPrincipal } from "@/lib/auth/page";
import { UserMenu } from "@/lib/auth/user-menu";

import "./globals.css";

export const metadata: Metadata = {
  title: "groupwatch",
  description: "Kafka consumer groups: state history, rebalance forensics, lag and alerts",
};

// Every page behind the proxy passes through here: layoutPrincipal() re-checks the account in
// the database, so a disabled or deleted user is sent to /login at their next page load.
export default async function RootLayout({ children }: { children: ReactNode }) {
  const principal = await layoutPrincipal();
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a href="/" className="brand">
            groupwatch
          </a>
          {principal ? <UserMenu principal={principal} /> : null}
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
