import { useId, useState } from "react";
import { NavLink, useLocation } from "react-router-dom";

/**
 * The account's navigation. On a wide screen every link shows; on a narrow one (a phone at
 * 375 px, where nine links wrapped to three lines) they fold behind a "Menu" button that keeps the
 * header to one line, and unfold as a list under it. Following a link folds them again.
 */
export function MainMenu({ isAdmin }: { isAdmin: boolean }) {
  const { pathname } = useLocation();
  // Open on the page where it was opened: following a link (a new path) folds it by itself.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const navId = useId();
  return (
    <>
      <button type="button" className="menu-toggle" aria-expanded={open} aria-controls={navId} onClick={() => setOpenOn(open ? null : pathname)}>
        Menu
      </button>
      <nav id={navId} aria-label="Main" className="main-menu" data-open={open}>
        <NavLink to="/" end>
          Overview
        </NavLink>
        <NavLink to="/playground">Playground</NavLink>
        <NavLink to="/jobs">Jobs</NavLink>
        <NavLink to="/collections">Collections</NavLink>
        <NavLink to="/monitors">Monitors</NavLink>
        <NavLink to="/keys">API keys</NavLink>
        <NavLink to="/billing">Billing</NavLink>
        <NavLink to="/settings">Settings</NavLink>
        <NavLink to="/support">Support</NavLink>
        {isAdmin && <NavLink to="/admin">Admin</NavLink>}
      </nav>
    </>
  );
}
