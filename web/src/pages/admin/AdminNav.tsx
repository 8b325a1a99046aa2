import { NavLink } from "react-router-dom";

/** The admin area's own navigation, under the main one. */
export function AdminNav() {
  return (
    <nav aria-label="Admin" className="admin-nav">
      <NavLink to="/admin" end>
        Stats
      </NavLink>
      <NavLink to="/admin/users">Users</NavLink>
      <NavLink to="/admin/jobs">Jobs</NavLink>
      <NavLink to="/admin/tickets">Tickets</NavLink>
      <NavLink to="/admin/events">Processor events</NavLink>
      <NavLink to="/admin/overage">Overage</NavLink>
      <NavLink to="/admin/outbox">Outbox</NavLink>
      <NavLink to="/admin/audit">Audit trail</NavLink>
    </nav>
  );
}
