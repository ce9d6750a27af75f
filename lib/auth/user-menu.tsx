import type { Principal } from "./authorize";
import { roleAtLeast } from "./roles";
import { SignOutButton } from "./sign-out-button";
import styles from "./user-menu.module.css";

/** The signed-in user in the top bar: name, role, the users page for admins, sign out. */
export function UserMenu({ principal }: { principal: Principal }) {
  return (
    <nav className={styles.menu} aria-label="Account">
      {roleAtLeast(principal.role, "admin") ? <a href="/admin/users">Users</a> : null}
      <span className={styles.who} data-testid="signed-in-user">
        {principal.username} <span className={styles.role}>{principal.role}</span>
      </span>
      <SignOutButton />
    </nav>
  );
}
