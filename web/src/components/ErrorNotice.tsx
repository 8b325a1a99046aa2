import { Link } from "react-router-dom";
import { ApiError, errorMessage } from "../api/client";

/**
 * An error as people read it: a 402 offers the billing page, a 429 says when to retry, a 5xx gives
 * the request id to quote to support. Announced to screen readers (role="alert").
 */
export function ErrorNotice({ error }: { error: unknown }) {
  if (!error) return null;
  const status = error instanceof ApiError ? error.status : 0;
  return (
    <div role="alert" className="error-notice">
      <p>{errorMessage(error)}</p>
      {status === 402 && (
        <p>
          <Link to="/billing">Buy credits or choose a plan</Link> to continue.
        </p>
      )}
      {status >= 500 && <p>If it happens again, contact support and quote the request id.</p>}
    </div>
  );
}
