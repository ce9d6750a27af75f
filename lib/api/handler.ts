// The one wrapper every API route handler goes through: authorization by role, input errors as
// 400 with a readable line and per-field details, 404 for unknown things, 500 without internals,
// BigInt as decimal strings, never cached.
import { z } from "zod";

import { authorize, type Principal, type Role } from "../auth/authorize";
import { logger } from "../logger";
import { BadRequestError, NotFoundError, type IssueDetail } from "./errors";
import { queryObject } from "./params";

type RawParams = Record<string, string | string[] | undefined>;

export interface RouteInput<P> {
  request: Request;
  url: URL;
  params: P;
  principal: Principal;
}

const NO_STORE = { "Cache-Control": "no-store" };

export function toJson(body: unknown): string {
  return JSON.stringify(body, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(toJson(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...NO_STORE },
  });
}

function issueDetails(error: z.ZodError): IssueDetail[] {
  return error.issues.map((i) => {
    const path = i.path.map(String).join(".");
    if (i.code === "unrecognized_keys") {
      const keys = i.keys.map((k) => k.slice(0, 100));
      return {
        path,
        message: `unknown parameter${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`,
      };
    }
    return { path, message: i.message };
  });
}

const oneLine = (details: IssueDetail[]) =>
  details
    .map((d) => (d.path ? `${d.path}: ${d.message}` : d.message))
    .join("; ")
    .replace(/[\r\n]+/g, " ");

/** Parses the query string with a strict schema (see queryObject for the rules). */
export function parseQuery<S extends z.ZodType>(
  url: URL,
  schema: S,
  repeatable: readonly string[] = [],
): z.output<S> {
  const { values, repeated } = queryObject(url.searchParams, repeatable);
  if (repeated.length > 0) {
    throw new BadRequestError(
      `give each parameter once: ${repeated.join(", ")}`,
      repeated.map((path) => ({ path, message: "given more than once" })),
    );
  }
  return schema.parse(values);
}

/** 409: the change conflicts with what exists (a duplicate name, say). */
export class ConflictError extends Error {
  override name = "ConflictError";
}

/** The JSON request body parsed with `schema`: 400 when it is not JSON or does not match. */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const text = await request.text();
  let json: unknown;
  try {
    json = text.trim() === "" ? undefined : JSON.parse(text);
  } catch {
    throw new BadRequestError("the request body is not valid JSON", [
      { path: "", message: "expected a JSON object" },
    ]);
  }
  if (json === undefined) {
    throw new BadRequestError("the request body is empty", [{ path: "", message: "expected a JSON object" }]);
  }
  return schema.parse(json);
}

/** A JSON answer with a status other than 200 (201 Created, 202 Accepted). */
export const withStatus = (body: unknown, status: number): Response => jsonResponse(body, status);

export function handler<P>(
  role: Role,
  paramsSchema: z.ZodType<P>,
  fn: (input: RouteInput<P>) => Promise<unknown>,
): (request: Request, context?: { params?: Promise<RawParams> }) => Promise<Response> {
  return async (request, context) => {
    try {
      const auth = await authorize(request, role);
      if (!auth.ok) return jsonResponse({ error: auth.error }, auth.status);
      const params = paramsSchema.parse((await context?.params) ?? {});
      const body = await fn({ request, url: new URL(request.url), params, principal: auth.principal });
      if (body instanceof Response) {
        body.headers.set("Cache-Control", "no-store");
        return body;
      }
      return jsonResponse(body);
    } catch (e) {
      if (e instanceof z.ZodError) {
        const details = issueDetails(e);
        return jsonResponse({ error: oneLine(details), details }, 400);
      }
      if (e instanceof BadRequestError) {
        return jsonResponse({ error: e.message, details: e.details }, 400);
      }
      if (e instanceof NotFoundError) return jsonResponse({ error: e.message }, 404);
      if (e instanceof ConflictError) return jsonResponse({ error: e.message }, 409);
      logger.error(
        { err: e, method: request.method, path: new URL(request.url).pathname },
        "api request failed",
      );
      return jsonResponse({ error: "internal error" }, 500);
    }
  };
}
