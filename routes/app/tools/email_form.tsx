/**
 * The one-address form panel the enrich and verify tools share: a heading, the message from the
 * last submit, the CSRF and idempotency fields, the email input and the tool's submit button.
 */
import type { MemberSession } from "../../../domain/members/session.ts";
import { CsrfField } from "../layout.tsx";
import { IdempotencyField, type Message, ToolMessage } from "./tool_call.tsx";

export interface EmailFormProps {
  /** The heading's id, which the panel is labelled by (`verify-form`, `enrich-form`). */
  id: string;
  /** Where the form posts. */
  action: string;
  /** The submit button's text. */
  submit: string;
  member: MemberSession;
  /** The idempotency key the rendered form carries. */
  formKey: string;
  /** The address to show in the input (what was last submitted, or empty). */
  email: string;
  message?: Message;
}

/** The panel with the form that asks for one email address. */
export function EmailForm(props: EmailFormProps) {
  return (
    <section class="panel" aria-labelledby={props.id}>
      <h2 id={props.id}>Which address?</h2>
      <ToolMessage message={props.message} />
      <form method="post" action={props.action} class="stack">
        <CsrfField member={props.member} />
        <IdempotencyField value={props.formKey} />
        <div class="row">
          <div class="field">
            <label for="email">Email address</label>
            <input
              id="email"
              name="email"
              type="text"
              inputmode="email"
              value={props.email}
              placeholder="grace.hopper@acme.test"
              autocomplete="off"
              spellcheck={false}
              required
            />
          </div>
          <button type="submit">{props.submit}</button>
        </div>
      </form>
    </section>
  );
}
