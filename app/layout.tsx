import type { Metadata } from "next";
import type { ReactNode } from "react";

import "./globals.css";

export const metadata: Metadata = {
  title: "groupwatch",
  description: "Kafka consumer groups: state history, rebalance forensics, lag and alerts",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="topbar">
          <a href="/" className="brand">
            groupwatch
          </a>
        </header>
        <main>{children}</main>
      </body>
    </html>
  );
}
