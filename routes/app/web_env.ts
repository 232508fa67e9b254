import type { MemberSession } from "../../domain/members/session.ts";

/** Hono context variables of the web app's pages (`/app/…`). */
export type WebEnv = {
  Variables: {
    requestId: string;
    /** The signed-in member (set by `requireMember`). */
    member: MemberSession;
    /** The session cookie's token (to sign out, or keep this session when choosing a password). */
    sessionToken: string;
  };
};
