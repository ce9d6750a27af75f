"use client";

import { useId, type ReactNode } from "react";

import styles from "./admin.module.css";
import { MutationError } from "./mutate";

/** A labelled control with its error (from the API's details) announced to screen readers. */
export function Field({
  label,
  error,
  hint,
  children,
}: {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (props: { id: string; "aria-invalid": boolean; "aria-describedby"?: string }) => ReactNode;
}) {
  const id = useId();
  const errId = `${id}-err`;
  return (
    <div className={styles.field}>
      <label htmlFor={id}>{label}</label>
      {children({ id, "aria-invalid": !!error, ...(error ? { "aria-describedby": errId } : {}) })}
      {hint ? <span className={styles.hint}>{hint}</span> : null}
      {error ? (
        <span id={errId} className="error-text">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** The API's refusal of a form: the one-line message (the fields show their own details). */
export function FormError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p className="error-text" role="alert" data-testid="form-error">
      {error instanceof MutationError && error.status === 403 ? "Not allowed: " : ""}
      {error.message}
    </p>
  );
}

export function FormGrid({ children }: { children: ReactNode }) {
  return <div className={styles.grid}>{children}</div>;
}

export function Actions({ children }: { children: ReactNode }) {
  return <div className={styles.actions}>{children}</div>;
}

/** A small inline confirmation for destructive buttons: first click arms, second confirms. */
export function ConfirmButton({
  label,
  confirmLabel = "Confirm",
  onConfirm,
  disabled,
  armed,
  setArmed,
}: {
  label: string;
  confirmLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  armed: boolean;
  setArmed: (v: boolean) => void;
}) {
  if (!armed)
    return (
      <button type="button" className="btn" disabled={disabled} onClick={() => setArmed(true)}>
        {label}
      </button>
    );
  return (
    <span className={styles.confirm}>
      <button
        type="button"
        className={`btn ${styles.danger}`}
        disabled={disabled}
        onClick={onConfirm}
        autoFocus
      >
        {confirmLabel}
      </button>
      <button type="button" className="btn" onClick={() => setArmed(false)}>
        Cancel
      </button>
    </span>
  );
}
