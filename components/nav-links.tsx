"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The main navigation; the current section is marked with aria-current. */
export function NavLinks({ admin }: { admin: boolean }) {
  const path = usePathname();
  const links = [
    { href: "/", label: "Overview", active: path === "/" || path.startsWith("/clusters") },
    { href: "/forensics", label: "Forensics", active: path.startsWith("/forensics") },
    { href: "/alerts", label: "Alerts", active: path.startsWith("/alerts") },
    ...(admin ? [{ href: "/settings", label: "Settings", active: path.startsWith("/settings") }] : []),
  ];
  return (
    <nav className="main-nav" aria-label="Main">
      {links.map((l) => (
        <Link key={l.href} href={l.href} aria-current={l.active ? "page" : undefined}>
          {l.label}
        </Link>
      ))}
    </nav>
  );
}
