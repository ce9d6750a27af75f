"use client";

import { signOut } from "next-auth/react";

import styles from "./user-menu.module.css";

export function SignOutButton() {
  return (
    <button type="button" className={styles.signOut} onClick={() => void signOut({ callbackUrl: "/login" })}>
      Sign out
    </button>
  );
}
