"use client";

import { useSyncExternalStore } from "react";

// The theme lives in <html data-theme>, set before first paint by THEME_SCRIPT (no flash) from
// localStorage, else from prefers-color-scheme. The toggle stores an explicit choice.

export const THEME_KEY = "groupwatch-theme";

export const THEME_SCRIPT = `(function(){try{var t=localStorage.getItem("${THEME_KEY}");if(t!=="light"&&t!=="dark"){t=window.matchMedia("(prefers-color-scheme: dark)").matches?"dark":"light"}document.documentElement.setAttribute("data-theme",t)}catch(e){}})();`;

type Theme = "light" | "dark";
const listeners = new Set<() => void>();

function current(): Theme {
  return document.documentElement.getAttribute("data-theme") === "dark" ? "dark" : "light";
}

function subscribe(l: () => void) {
  listeners.add(l);
  const media = window.matchMedia("(prefers-color-scheme: dark)");
  // Follow the system while the user has made no choice of their own.
  const onSystem = () => {
    if (localStorage.getItem(THEME_KEY) === null) {
      document.documentElement.setAttribute("data-theme", media.matches ? "dark" : "light");
      listeners.forEach((x) => x());
    }
  };
  media.addEventListener("change", onSystem);
  return () => {
    listeners.delete(l);
    media.removeEventListener("change", onSystem);
  };
}

export function ThemeToggle() {
  const theme = useSyncExternalStore<Theme | null>(subscribe, current, () => null);
  const next: Theme = theme === "dark" ? "light" : "dark";
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={`Switch to ${next} theme`}
      title={`Switch to ${next} theme`}
      onClick={() => {
        document.documentElement.setAttribute("data-theme", next);
        try {
          localStorage.setItem(THEME_KEY, next);
        } catch {
          // storage disabled: the choice lasts for this page only
        }
        listeners.forEach((l) => l());
      }}
    >
      <span aria-hidden="true">{theme === null ? "◐" : theme === "dark" ? "☀" : "☾"}</span>
    </button>
  );
}
