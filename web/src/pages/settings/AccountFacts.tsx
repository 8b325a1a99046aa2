import type { Schemas } from "../../api/client";

/** The sign-in email and whether it is verified (it cannot be changed here: the API has no email change). */
export function AccountFacts({ me }: { me: Schemas["UserDto"] }) {
  return (
    <section aria-labelledby="account-title" className="card">
      <h2 id="account-title">Account</h2>
      <dl className="facts">
        <div>
          <dt>Email</dt>
          <dd>{me.email}</dd>
        </div>
        <div>
          <dt>Email verification</dt>
          <dd>{me.email_verified ? "Verified" : "Not verified yet"}</dd>
        </div>
      </dl>
      {!me.email_verified && (
        <p className="muted">
          Open the link in the email we sent when you signed up to verify this address: until then, research can spend only part of your signup credits.
        </p>
      )}
    </section>
  );
}
