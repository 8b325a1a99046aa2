import { useQuery } from "@tanstack/react-query";
import { Link, useParams } from "react-router-dom";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import { Breakable } from "./Breakable";
import { CreditAdjustForm } from "./CreditAdjustForm";
import { count, credits, megabytes, when } from "../../format";
import { SuspendControl } from "./SuspendControl";
import { UserJobs } from "./UserJobs";
import { UserLedger } from "./UserLedger";

/** One user: who they are, their balance and usage, credit adjustment, suspension, ledger and jobs. */
export function AdminUserDetail() {
  const { id = "" } = useParams();
  const user = useQuery({ queryKey: ["admin", "users", id], queryFn: () => dataOf(api.GET("/api/admin/users/{id}", { params: { path: { id } } })) });
  return (
    <section aria-labelledby="admin-user-title">
      <p>
        <Link to="/admin/users">← All users</Link>
      </p>
      {user.isPending && <Loading what="the user" />}
      {user.isError && <h1 id="admin-user-title">User</h1>}
      <ErrorNotice error={user.error} />
      {user.data && (
        <>
          <h1 id="admin-user-title" className="wrap">
            <Breakable text={user.data.email} />
          </h1>
          <Profile user={user.data} />
          <div className="two-up">
            <CreditAdjustForm userId={id} email={user.data.email} />
            <SuspendControl user={user.data} />
          </div>
          <UserLedger userId={id} />
          <UserJobs userId={id} />
        </>
      )}
    </section>
  );
}

function Profile({ user }: { user: Schemas["AdminUserDetail"] }) {
  const name = [user.first_name, user.last_name].filter(Boolean).join(" ");
  const storage = user.storage;
  return (
    <>
      <dl className="tiles" aria-label="Balance and usage">
        <div>
          <dt>Credits</dt>
          <dd>{credits(user.credits)}</dd>
        </div>
        <div>
          <dt>Jobs</dt>
          <dd>{count(user.jobs_count)}</dd>
        </div>
        <div>
          <dt>Open tickets</dt>
          <dd>{count(user.open_tickets)}</dd>
        </div>
        <div>
          <dt>Stored text</dt>
          <dd>
            {megabytes(storage.bytes)} <span className="unit">of {megabytes(storage.quota_bytes)} MB</span>
          </dd>
        </div>
      </dl>
      <dl className="facts" aria-label="Account">
        <dt>User id</dt>
        <dd>
          <code>{user.id}</code>
        </dd>
        <dt>Name</dt>
        <dd>{name || <span className="muted">not given</span>}</dd>
        <dt>Signed up</dt>
        <dd>{when(user.created_at)}</dd>
        <dt>Email</dt>
        <dd>{user.email_verified ? "verified" : "not verified"}</dd>
        <dt>Marketing emails</dt>
        <dd>{user.marketing_emails_enabled ? "yes" : "no"}</dd>
        <dt>Role</dt>
        <dd>{user.is_admin ? "admin" : "customer"}</dd>
        <dt>Status</dt>
        <dd>{user.suspended_at ? <span className="tag bad">Suspended since {when(user.suspended_at)}</span> : "active"}</dd>
        <dt>Collections</dt>
        <dd>
          {count(storage.collections)} ({count(storage.documents)} documents)
        </dd>
        <dt>Processor customer</dt>
        <dd>{user.processor_customer_id ? <code>{user.processor_customer_id}</code> : <span className="muted">none</span>}</dd>
      </dl>
    </>
  );
}
