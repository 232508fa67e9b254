/**
 * The public opt-out page (`/privacy/opt-out`, no sign-in): a person enters an address and the
 * service mails a confirmation link to it; the link's page (`/privacy/opt-out/confirm`) asks for
 * one press of a button (a GET never acts: mail scanners open links), which suppresses the
 * address and erases every copy (domain/privacy/). Whatever the service holds, the pages say the
 * same: they never tell whether anything was held. Without a submission server the page says how
 * to write to the operator instead. Thin: the verbs do the work, rate limits included.
 */
import { Hono } from "hono";
import type { DomainContext } from "../../domain/context.ts";
import { CONFIRM_PATH, requestOptOut } from "../../domain/privacy/request_opt_out.ts";
import { confirmOptOut } from "../../domain/privacy/confirm_opt_out.ts";
import type { AppEnv } from "../app_env.ts";
import { clientAddressOf } from "./client_address.ts";
import { Notice, PlainPage } from "./layout.tsx";

export const OPT_OUT_PATH = "/privacy/opt-out";

function RequestForm(props: { email?: string }) {
  return (
    <form method="post" action={OPT_OUT_PATH} class="stack">
      <div class="field">
        <label for="opt-out-email">Your email address</label>
        <input
          type="email"
          id="opt-out-email"
          name="email"
          required
          autocomplete="email"
          value={props.email ?? ""}
        />
      </div>
      <button type="submit">Send me the confirmation link</button>
    </form>
  );
}

function Intro() {
  return (
    <p>
      This service finds and verifies professional contact details for its customers. If you do not
      want it to hold or give out anything about you, ask here: once you confirm from your mailbox,
      your address is put on a list that every lookup checks, and what the service holds about you
      is erased.
    </p>
  );
}

function WriteToUs(props: { contact: string | null }) {
  return (
    <>
      <p>
        This service cannot send the confirmation message from here. Write to its operator instead,
        from the address you want removed, and ask for it to be suppressed and erased:
      </p>
      <p>
        {props.contact
          ? (props.contact.includes("@") && !props.contact.includes("/")
            ? <a href={`mailto:${props.contact}`}>{props.contact}</a>
            : <a href={props.contact}>{props.contact}</a>)
          : "the operator of this service (the address on its website)."}
      </p>
    </>
  );
}

export function mountOptOut(app: Hono<AppEnv>, ctx: DomainContext): void {
  const pages = new Hono<AppEnv>();
  pages.use("*", async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
    c.res.headers.set("Referrer-Policy", "no-referrer");
    c.res.headers.set("X-Frame-Options", "DENY");
    c.res.headers.set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'");
  });
  const canMail = () => Boolean(ctx.mailSender && ctx.settings.privacy?.publicUrl);
  const contact = () => ctx.settings.privacy?.contact ?? null;

  pages.get("/opt-out", (c) =>
    c.html(
      <PlainPage title="Stop us holding your contact data">
        <Intro />
        {canMail() ? <RequestForm /> : <WriteToUs contact={contact()} />}
      </PlainPage>,
    ));

  pages.post("/opt-out", async (c) => {
    const form = await c.req.parseBody();
    const email = typeof form.email === "string" ? form.email : "";
    const outcome = await requestOptOut(ctx, { email, clientAddress: clientAddressOf(c) });
    switch (outcome.kind) {
      case "sent":
        return c.html(
          <PlainPage title="Check your mailbox">
            <Notice kind="success">
              If this address receives mail, a message with a confirmation link is on its way to it.
              Open the link to finish; it works once.
            </Notice>
          </PlainPage>,
        );
      case "invalid":
        c.status(400);
        return c.html(
          <PlainPage title="Stop us holding your contact data">
            <Notice kind="error">Enter one email address, such as name@example.com.</Notice>
            <RequestForm />
          </PlainPage>,
        );
      case "no-mail":
        return c.html(
          <PlainPage title="Stop us holding your contact data">
            <WriteToUs contact={contact()} />
          </PlainPage>,
        );
      case "rate-limited":
        c.status(429);
        c.header("Retry-After", String(outcome.retryAfterSeconds));
        return c.html(
          <PlainPage title="Slow down">
            <Notice kind="error">
              Too many requests from here. Try again in {Math.ceil(outcome.retryAfterSeconds / 60)}
              {" "}
              minutes.
            </Notice>
          </PlainPage>,
        );
      case "unavailable":
        c.status(503);
        return c.html(
          <PlainPage title="Try again later">
            <Notice kind="error">
              The confirmation message could not be sent just now. Try again later.
            </Notice>
            <WriteToUs contact={contact()} />
          </PlainPage>,
        );
    }
  });

  pages.get("/opt-out/confirm", (c) => {
    const token = c.req.query("token") ?? "";
    return c.html(
      <PlainPage title="Confirm">
        <p>Press the button to stop this service holding or giving out contact data about you.</p>
        <form method="post" action={CONFIRM_PATH}>
          <input type="hidden" name="token" value={token} />
          <button type="submit">Yes, remove me</button>
        </form>
      </PlainPage>,
    );
  });

  pages.post("/opt-out/confirm", async (c) => {
    const form = await c.req.parseBody();
    const token = typeof form.token === "string" ? form.token : "";
    const outcome = await confirmOptOut(ctx, { token });
    if (outcome.kind === "done") {
      return c.html(
        <PlainPage title="Done">
          <Notice kind="success">
            Your address is on our suppression list: no lookup returns it, and nothing the service
            held about it is kept. Customers' own copies of earlier answers are theirs: ask them
            directly.
          </Notice>
        </PlainPage>,
      );
    }
    c.status(outcome.kind === "used" ? 409 : 400);
    return c.html(
      <PlainPage title="This link does not work">
        <Notice kind="error">
          {outcome.kind === "used"
            ? "This link was used already: it works once. Nothing more is needed."
            : "This link is not valid or has expired. Ask for a new one."}
        </Notice>
        <p>
          <a href={OPT_OUT_PATH}>Ask for a new link</a>
        </p>
      </PlainPage>,
    );
  });

  app.route("/privacy", pages);
}
