/**
 * A small browser for the web app's tests through `app.request`: it keeps cookies, posts forms
 * with the page's CSRF token, and does not follow redirects (tests assert them).
 * `signedInMember` creates a member, signs in and chooses a password, as a person would.
 */
import assert from "node:assert/strict";
import { createMember } from "../domain/members/create_member.ts";
import type { TestEnv } from "./harness.ts";

export interface WebResponse {
  status: number;
  location: string | null;
  headers: Headers;
  text: string;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The CSRF token of the last page that carried one. */
  csrf = "";

  constructor(readonly app: TestEnv["app"]) {}

  async request(path: string, init: RequestInit = {}): Promise<WebResponse> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) {
      headers.set("Cookie", [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    const response = await this.app.request(path, { ...init, headers, redirect: "manual" });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair, ...attributes] = cookie.split(";");
      const [name, ...rest] = pair.split("=");
      const value = rest.join("=");
      const expired = attributes.some((a) => /max-age=0\b/i.test(a.trim())) ||
        attributes.some((a) => /^expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value === "") this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text);
    if (token) this.csrf = token[1];
    return {
      status: response.status,
      location: response.headers.get("location"),
      headers: response.headers,
      text,
    };
  }

  get(path: string): Promise<WebResponse> {
    return this.request(path);
  }

  /** Posts a form; `_csrf` is the last page's token unless the fields say otherwise. */
  post(path: string, fields: Record<string, string | string[]>): Promise<WebResponse> {
    const body = new URLSearchParams();
    if (!("_csrf" in fields)) body.set("_csrf", this.csrf);
    for (const [name, value] of Object.entries(fields)) {
      for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
    }
    return this.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body,
    });
  }
}

export const MEMBER_PASSWORD = "a long and private passphrase";

/** A member of the workspace, signed in with their own password (past the one-time one). */
export async function signedInMember(
  env: TestEnv,
  workspaceId: string,
  email = `member-${crypto.randomUUID().slice(0, 8)}@example.com`,
): Promise<WebClient> {
  const created = await createMember(env, { workspaceId, email });
  const client = new WebClient(env.app);
  await client.get("/app/sign-in");
  const signedIn = await client.post("/app/sign-in", {
    email,
    password: created.oneTimePassword,
    next: "/app",
  });
  assert.equal(signedIn.status, 303, signedIn.text);
  assert.equal(signedIn.location, "/app/password");
  await client.get("/app/password");
  const chosen = await client.post("/app/password", {
    password: MEMBER_PASSWORD,
    confirmation: MEMBER_PASSWORD,
  });
  assert.equal(chosen.status, 303, chosen.text);
  assert.equal(chosen.location, "/app");
  return client;
}
