import type { Role } from "./roles";

/** What a page renders when requirePageRole() refused: the role it needs, and a way home. */
export function Forbidden({ need, error }: { need: Role; error?: string }) {
  return (
    <div className="card" role="alert" data-testid="forbidden">
      <h1>403: not allowed</h1>
      <p>{error ?? `This page needs the ${need} role.`}</p>
      <p>
        <a href="/">Back to the overview</a>
      </p>
    </div>
  );
}
