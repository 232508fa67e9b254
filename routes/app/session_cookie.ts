/**
 * The web app's cookies: the session (`svc_session`) and, before sign-in, the sign-in form's CSRF
 * token (`svc_signin_csrf`). Both `HttpOnly`, `SameSite=Lax`, `Path=/app`, and `Secure` whenever
 * the request reached us over HTTPS (directly or, per `X-Forwarded-Proto`, through a proxy).
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";

export const SESSION_COOKIE = "svc_session";
export const SIGN_IN_CSRF_COOKIE = "svc_signin_csrf";

export function overHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === "https:" ||
    c.req.header("x-forwarded-proto")?.split(",")[0].trim() === "https";
}

export function setAppCookie(c: Context, name: string, value: string, expires?: Date): void {
  setCookie(c, name, value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: overHttps(c),
    path: "/app",
    ...(expires ? { expires } : {}),
  });
}

export function readAppCookie(c: Context, name: string): string | undefined {
  return getCookie(c, name);
}

export function clearAppCookie(c: Context, name: string): void {
  deleteCookie(c, name, { path: "/app", secure: overHttps(c) });
}
