/**
 * The web app's page shell: header, navigation, the signed-in member and sign-out, and the
 * content. Server-rendered with hono/jsx; the stylesheet and the one small script are served by
 * the app itself (`assets.ts`), no CDN.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import type { MemberSession } from "../../domain/members/session.ts";
import { FAVICON } from "../favicon.ts";
import { ASSET_PATHS } from "./assets.ts";
import { grouped } from "./numbers.ts";

/**
 * The app's navigation, in order. A new page is one line here: its `section` is what the page
 * passes to `Page` so its item is marked as the open one.
 */
export const NAVIGATION = [
  { section: "overview", href: "/app", label: "Overview" },
  { section: "ledger", href: "/app/ledger", label: "Ledger" },
  { section: "tools", href: "/app/tools", label: "Tools" },
  { section: "domain-search", href: "/app/domain-search", label: "Domain search" },
  { section: "lead-search", href: "/app/lead-search", label: "Lead search" },
  { section: "bulk", href: "/app/bulk", label: "Bulk" },
  { section: "do-not-contact", href: "/app/do-not-contact", label: "Do-not-contact" },
  { section: "keys", href: "/app/settings/api-keys", label: "API keys" },
  { section: "webhooks", href: "/app/settings/webhooks", label: "Webhooks" },
  { section: "audit-log", href: "/app/settings/audit-log", label: "Audit log" },
  { section: "prices", href: "/app/prices", label: "Prices" },
  { section: "docs", href: "/docs", label: "API reference" },
] as const satisfies readonly { section: string; href: string; label: string }[];

export type Section = (typeof NAVIGATION)[number]["section"];

function Document(props: { title: string; children: Child }) {
  // The doctype keeps Chromium and every other browser out of quirks mode.
  return (
    <>
      {raw("<!DOCTYPE html>")}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{props.title} · Contact data</title>
          <link rel="icon" href={FAVICON} />
          <link rel="stylesheet" href={ASSET_PATHS.css} />
          <script src={ASSET_PATHS.js} defer></script>
        </head>
        {props.children}
      </html>
    </>
  );
}

/** A page of the signed-in app. */
export function Page(
  props: { title: string; section: Section | null; member: MemberSession; children: Child },
) {
  return (
    <Document title={props.title}>
      <body>
        <a class="skip-link" href="#content">Skip to the page</a>
        <header class="topbar">
          <a class="brand" href="/app">
            <span class="brand-mark" aria-hidden="true">◆</span> Contact data
          </a>
          <form method="post" action="/app/sign-out" class="signout">
            <CsrfField member={props.member} />
            <a class="who" href="/app/password" title={`${props.member.email}: change password`}>
              <span class="visually-hidden">Signed in as</span> {props.member.email}
            </a>
            <button type="submit" class="button subtle">Sign out</button>
          </form>
        </header>
        <div class="frame">
          <nav class="sidenav" aria-label="Sections">
            {NAVIGATION.map((item) => (
              <a
                href={item.href}
                class={item.section === props.section ? "active" : ""}
                aria-current={item.section === props.section ? "page" : undefined}
              >
                {item.label}
              </a>
            ))}
          </nav>
          <main class="content" id="content" tabindex={-1}>
            <h1>{props.title}</h1>
            {props.children}
          </main>
        </div>
      </body>
    </Document>
  );
}

/** A page outside the signed-in app (sign-in, choose a password, errors). */
export function PlainPage(props: { title: string; children: Child }) {
  return (
    <Document title={props.title}>
      <body class="plain">
        <main class="card narrow">
          <a class="brand" href="/app">
            <span class="brand-mark" aria-hidden="true">◆</span> Contact data
          </a>
          <h1>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </Document>
  );
}

export function ErrorPage(props: { title: string; message: string }) {
  return (
    <PlainPage title={props.title}>
      <p class="notice error" role="alert">{props.message}</p>
      <p>
        <a href="/app">Back to the app</a>
      </p>
    </PlainPage>
  );
}

/** Any address under /app that is no page: the navigation for a member, a way home for all. */
export function NotFoundPage(props: { member: MemberSession | null }) {
  const body = (
    <>
      <p class="notice error" role="alert">There is no page at this address.</p>
      <p>
        It may have been mistyped, or the link that led here is out of date.{" "}
        <a href="/app">Go to the overview</a>
        {props.member ? " or choose a section from the navigation." : "."}
      </p>
    </>
  );
  return props.member
    ? <Page title="Page not found" section={null} member={props.member}>{body}</Page>
    : <PlainPage title="Page not found">{body}</PlainPage>;
}

/** The session's CSRF token, in every form of the app. */
export function CsrfField(props: { member: MemberSession }) {
  return <input type="hidden" name="_csrf" value={props.member.csrfToken} />;
}

/** A message above a form: what went wrong, or what just happened. */
export function Notice(props: { kind: "error" | "success" | "info"; children: Child }) {
  return (
    <p class={`notice ${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
      {props.children}
    </p>
  );
}

/** Points, grouped by thousands. */
export function points(value: number): string {
  return grouped(value);
}
