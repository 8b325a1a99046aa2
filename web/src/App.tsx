import { BrowserRouter, Navigate, NavLink, Outlet, Route, Routes, useNavigate } from "react-router-dom";
import { api, session } from "./api/client";
import { useSession } from "./auth";
import { Keys } from "./pages/Keys";
import { Overview } from "./pages/Overview";
import { ForgotPassword, ResetPassword } from "./pages/PasswordReset";
import { SignIn } from "./pages/SignIn";

/** The pages of a signed-in account, with the navigation; anyone else is sent to log in. */
function Account() {
  const state = useSession();
  const navigate = useNavigate();
  if (state === "unknown") return <p role="status">Resuming your session…</p>;
  if (state === "signed-out") return <Navigate to="/login" replace />;
  async function logOut() {
    const refreshToken = localStorage.getItem("deep-research.refresh-token");
    if (refreshToken) await api.POST("/api/auth/logout", { body: { refresh_token: refreshToken } });
    session.signedOut();
    navigate("/login");
  }
  return (
    <>
      <header>
        <nav aria-label="Main">
          <NavLink to="/" end>
            Overview
          </NavLink>
          <NavLink to="/keys">API keys</NavLink>
        </nav>
        <button type="button" onClick={logOut}>
          Log out
        </button>
      </header>
      <main>
        <Outlet />
      </main>
    </>
  );
}

/** The outcome of the emailed verification link (the API redirects to /?email_verified=1), kept across the redirect to log in. */
const emailJustVerified = new URLSearchParams(window.location.search).get("email_verified") === "1";

export function App() {
  return (
    <BrowserRouter>
      {emailJustVerified && (
        <p role="status" className="banner">
          Your email address is verified.
        </p>
      )}
      <Routes>
        <Route path="/login" element={<SignIn mode="login" />} />
        <Route path="/signup" element={<SignIn mode="signup" />} />
        <Route path="/forgot-password" element={<ForgotPassword />} />
        <Route path="/reset-password" element={<ResetPassword />} />
        <Route element={<Account />}>
          <Route index element={<Overview />} />
          <Route path="keys" element={<Keys />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
