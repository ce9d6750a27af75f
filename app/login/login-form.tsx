"use client";

import { signIn } from "next-auth/react";
import { useId, useState, type FormEvent } from "react";

import styles from "./login.module.css";

interface Props {
  callbackUrl: string;
  initialError: string | undefined;
  oidc: { id: string; name: string } | null;
}

export function LoginForm({ callbackUrl, initialError, oidc }: Props) {
  const [error, setError] = useState(initialError);
  const [pending, setPending] = useState(false);
  const errorId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => {
      const v = form.get(name);
      return typeof v === "string" ? v : "";
    };
    setPending(true);
    setError(undefined);
    try {
      const res = await signIn("credentials", {
        redirect: false,
        username: field("username").trim(),
        password: field("password"),
        callbackUrl,
      });
      if (res?.ok && !res.error) {
        // A full load, so the server-rendered header picks up the new session.
        window.location.assign(callbackUrl);
        return;
      }
      setError("Wrong username or password, or the account is disabled.");
    } catch {
      setError("The server could not be reached. Please try again.");
    }
    setPending(false);
  }

  return (
    <section className={styles.panel} aria-labelledby="login-title">
      <h1 id="login-title" className={styles.title}>
        Sign in to groupwatch
      </h1>
      <form
        className={styles.form}
        onSubmit={(e) => void submit(e)}
        aria-describedby={error ? errorId : undefined}
      >
        <label className={styles.label} htmlFor="username">
          Username
        </label>
        <input
          className={styles.input}
          id="username"
          name="username"
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          aria-invalid={error ? true : undefined}
        />
        <label className={styles.label} htmlFor="password">
          Password
        </label>
        <input
          className={styles.input}
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          aria-invalid={error ? true : undefined}
        />
        <p id={errorId} className={styles.error} role="alert" aria-live="assertive" data-testid="login-error">
          {error ?? ""}
        </p>
        <button className={styles.primary} type="submit" disabled={pending} aria-busy={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {oidc ? (
        <>
          <p className={styles.or}>
            <span>or</span>
          </p>
          <button
            className={styles.secondary}
            type="button"
            onClick={() => void signIn(oidc.id, { callbackUrl })}
          >
            Sign in with {oidc.name}
          </button>
        </>
      ) : null}
    </section>
  );
}
