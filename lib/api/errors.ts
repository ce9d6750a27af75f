// Errors the API maps to status codes (lib/api/handler.ts). Services throw them; the CLI maps
// them to exit codes.

export interface IssueDetail {
  path: string;
  message: string;
}

/** 404: the cluster, group or other addressed thing does not exist. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

/** 400 for rules a schema cannot express. */
export class BadRequestError extends Error {
  override name = "BadRequestError";
  constructor(
    message: string,
    readonly details: IssueDetail[] = [],
  ) {
    super(message);
  }
}
