import { Link, Navigate, Route, Routes } from "react-router-dom";
import { useMe } from "../../auth";
import { ErrorNotice } from "../../components/ErrorNotice";
import { Loading } from "../../components/Loading";
import "./Admin.css";
import { AdminAudit } from "./AdminAudit";
import { AdminEvents } from "./AdminEvents";
import { AdminJobDetail } from "./AdminJobDetail";
import { AdminJobs } from "./AdminJobs";
import { AdminNav } from "./AdminNav";
import { AdminOutbox } from "./AdminOutbox";
import { AdminOverage } from "./AdminOverage";
import { AdminStats } from "./AdminStats";
import { AdminTicketDetail } from "./AdminTicketDetail";
import { AdminTickets } from "./AdminTickets";
import { AdminUserDetail } from "./AdminUserDetail";
import { AdminUsers } from "./AdminUsers";

/**
 * The operator surface, under /admin. The API refuses every admin call for anyone else (403), but
 * the pages also refuse before asking, so a non-admin sees a plain explanation and no admin data.
 */
export function AdminRoutes() {
  const me = useMe();
  if (me.isPending) return <Loading what="your account" />;
  if (me.isError) return <ErrorNotice error={me.error} />;
  if (!me.data.is_admin) return <Refusal />;
  return (
    <div className="admin">
      <AdminNav />
      <Routes>
        <Route index element={<AdminStats />} />
        <Route path="users" element={<AdminUsers />} />
        <Route path="users/:id" element={<AdminUserDetail />} />
        <Route path="jobs" element={<AdminJobs />} />
        <Route path="jobs/:id" element={<AdminJobDetail />} />
        <Route path="tickets" element={<AdminTickets />} />
        <Route path="tickets/:id" element={<AdminTicketDetail />} />
        <Route path="events" element={<AdminEvents />} />
        <Route path="overage" element={<AdminOverage />} />
        <Route path="outbox" element={<AdminOutbox />} />
        <Route path="audit" element={<AdminAudit />} />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Routes>
    </div>
  );
}

function Refusal() {
  return (
    <section aria-labelledby="admin-refused" className="admin">
      <h1 id="admin-refused">You do not have access to the admin pages</h1>
      <p>These pages are for the service's operators. If you think you should have access, ask an administrator.</p>
      <p>
        <Link to="/">Back to the overview</Link>
      </p>
    </section>
  );
}
