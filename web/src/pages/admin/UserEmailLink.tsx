import { Link } from "react-router-dom";
import { Breakable } from "./Breakable";

/** A user's email in a list, linking to their admin page; long addresses wrap at word ends. */
export function UserEmailLink({ userId, email }: { userId: string; email: string }) {
  return (
    <Link to={`/admin/users/${userId}`}>
      <Breakable text={email} />
    </Link>
  );
}
