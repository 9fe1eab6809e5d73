import type { Workspace } from '../service/workspace';
import type { PageInfo } from '../core/listPaging';
import type { UploadedFile } from '../service/attachments';
import type { RequestAuth } from '../auth/gate';
import type { Role } from '../auth/identity';
import type { RunControl } from '../core/progress';
import type { Response } from 'express';
import type { Static, TSchema } from '@sinclair/typebox';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type JsonSchema = Record<string, unknown>;

export interface QueryParam {
  name: string;
  type: 'string' | 'boolean' | 'integer';
  description: string;
  required?: boolean;
  enum?: readonly string[];
  /** Bounds of an integer parameter. */
  minimum?: number;
  maximum?: number;
}

/**
 * What a handler is given. `B` is the body as the route's schema types it (see `route`); a route
 * without a schema gets `unknown`, which nothing can read without a check.
 */
export interface RequestContext<B = unknown> {
  ws: Workspace;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** Repeated `meta.<field>` query parameters, for routes that accept them. */
  metaQuery: { field: string; value: string }[];
  /** Checked against the route's body schema before the handler runs. */
  body: B;
  /** Files of a multipart/form-data body, for routes with `multipart` (the body is then `{}`). */
  files?: UploadedFile[];
  /** Whether auth is on, what the request carried and who it is. */
  auth: RequestAuth;
  /** The board the route acts on: `{boardId}` when the path has it, else the default board. */
  boardId: string;
  actor: string;
  /** The agent the caller says it is (X-Kanban-Agent, a valid name), or null for a person. */
  agent: string | null;
  /** The caller's hold on a long operation: its progress, and its cancellation. */
  run: RunControl;
}

/** What a handler answers for "nothing to give" on a route that documents `noContent`: 204 without a body. */
export const NO_CONTENT: unique symbol = Symbol('no content');

/** A file or other non-JSON answer. */
export class RawResponse {
  constructor(
    readonly send: (res: Response) => void | Promise<void>,
    /** The same answer as bytes, for hosts without an HTTP response (the VS Code webview bridge). */
    readonly bytes?: () => Promise<{ name: string; contentType: string; data: Buffer }>,
  ) {}
}

/**
 * A success answer already serialized as the whole envelope (`{"ok":true,"data":...}`), with an
 * ETag naming these bytes, so HTTP sends it as is and answers 304 to a matching If-None-Match.
 * `data` gives the value for hosts that pass objects (the VS Code webview bridge).
 */
export class SerializedAnswer {
  constructor(
    readonly body: Buffer,
    readonly etag: string,
    readonly data: () => unknown,
    /** The body gzip-compressed, for clients that accept it. */
    readonly gzipped?: () => Promise<Buffer>,
    /** For a list: how many cards match and where the next page starts (headers over HTTP). */
    readonly page?: PageInfo,
  ) {}
}

/** The largest JSON body a route accepts unless it names its own `bodyLimit` (also /mcp's). */
export const DEFAULT_BODY_LIMIT = '1mb';

/** Everything a route says about itself except its body and what reads it. */
interface RouteFields {
  method: Method;
  /** OpenAPI-style path under /api, e.g. `/tasks/{id}`. */
  path: string;
  summary: string;
  tag: string;
  /** Also mount the board-scoped twin `/boards/{boardId}<path>`. */
  twin?: boolean;
  query?: QueryParam[];
  /** Accept repeated `meta.<field>` query parameters. */
  metaQuery?: boolean;
  success?: 200 | 201 | 204;
  /** The handler may answer NO_CONTENT (204) instead of its success; this says when, for the docs. */
  noContent?: string;
  /** What the success data is, for the docs. */
  returns?: string;
  /** For a file answer (`returns: 'the file bytes'`): its content types, each with the schema of its body, for the docs. */
  files?: Record<string, JsonSchema>;
  /** JSON schema of the success `data`, for the docs (and tests that hold answers to it). */
  response?: JsonSchema;
  /** Status for an unknown `{boardId}` (default 404; some list routes answer 400). */
  unknownBoardStatus?: 400 | 404;
  /** Largest accepted body (default 1mb). */
  bodyLimit?: string;
  /** Also accept the body as multipart/form-data file parts (`curl -F file=@x`), streamed into `files`. */
  multipart?: boolean;
  /** Role needed when auth is on (default: see auth/roles.ts). */
  role?: Role | 'public';
  /** The change can succeed with a `Warning` header (a column taken over its WIP limit), for the docs. */
  warns?: boolean;
  /**
   * Why this write can never answer 409: it changes no card file and not .kanban.json (the caller's
   * read state, the board's log, a trigger that only announces). Every other write declares 409.
   */
  noConflict?: string;
  /** Error statuses this route can answer besides 400/413, for the docs. */
  errors?: number[];
  /** Served without Express when the request is plain (api/fastLane.ts): the hottest reads. The handler must answer a SerializedAnswer. */
  fastLane?: boolean;
}

/** A route as the hosts see it: the body schema as plain JSON, the body as `unknown`. */
export interface RouteDef extends RouteFields {
  /** JSON schema of the body; the body may be left out when it has no required field. */
  body?: JsonSchema;
  /**
   * The ETag of the one resource this route reads or changes (a card, a board, settings, labels):
   * sent with the answer, and checked against `If-Match` before a change (412 when stale).
   */
  version?: (ctx: RequestContext) => string;
  handle: (ctx: RequestContext) => unknown;
}

/** A route with a JSON body: its handler's `ctx.body` has the type of `body`. */
export interface BodyRoute<S extends TSchema> extends RouteFields {
  body: S;
  multipart?: false;
  version?: (ctx: RequestContext<Static<S>>) => string;
  handle: (ctx: RequestContext<Static<S>>) => unknown;
}

/**
 * What a route that also takes multipart/form-data gets: either the file parts (the body is then
 * `{}`, none of its fields set), or a JSON body of its schema; checking `ctx.files` tells which.
 */
export type MultipartContext<B> =
  | (RequestContext<{ [K in keyof B]?: undefined }> & { files: UploadedFile[] })
  | (RequestContext<B> & { files?: undefined });

export interface MultipartRoute<S extends TSchema> extends RouteFields {
  body: S;
  multipart: true;
  version?: (ctx: RequestContext) => string;
  handle: (ctx: MultipartContext<Static<S>>) => unknown;
}

/**
 * A route whose handler is typed by its body schema. The route table checks every body against
 * the schema before the handler runs (api/execute.ts), which is what makes handing the erased
 * `RouteDef` a handler of the narrower type sound.
 */
export function route<S extends TSchema>(def: MultipartRoute<S>): RouteDef;
export function route<S extends TSchema>(def: BodyRoute<S>): RouteDef;
export function route<S extends TSchema>(def: BodyRoute<S> | MultipartRoute<S>): RouteDef {
  return def as unknown as RouteDef;
}

export function defineRoutes(routes: RouteDef[]): RouteDef[] {
  return routes;
}
