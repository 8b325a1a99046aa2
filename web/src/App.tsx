import { useQueryClient } from "@tanstack/react-query";
import { BrowserRouter, Navigate, Outlet, Route, Routes, useNavigate } from "react-router-dom";
import { api, session } from "./api/client";
import { useMe, useSession } from "./auth";
import { MainMenu } from "./components/MainMenu";
import { AdminRoutes } from "./pages/admin/AdminRoutes";
import { Billing } from "./pages/Billing";
import { CollectionDetail } from "./pages/CollectionDetail";
import { CollectionDocument } from "./pages/CollectionDocument";
import { Collections } from "./pages/Collections";
import { Monitors } from "./pages/Monitors";
import { JobDetail } from "./pages/JobDetail";
import { Jobs } from "./pages/Jobs";
import { Keys } from "./pages/Keys";
import { OAuthConsent } from "./pages/OAuthConsent";
import { Overview } from "./pages/Overview";
import { ForgotPassword, ResetPassword } from "./pages/PasswordReset";
import { Playground } from "./pages/Playground";
import { Settings } from "./pages/Settings";
import { SignIn } from "./pages/SignIn";
import { Support } from "./pages/Support";
import { VerifyEmail } from "./pages/VerifyEmail";

/** The pages of a signed-in account, with the navigation; anyone else is sent to log in. */
function Account() {
  const state = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useMe(state === "signed-in"); // not before a reload has resumed the session
  if (state === "unknown") return <p role="status">Resuming your session…</p>;
  if (state === "signed-out") return <Navigate to="/login" replace />;
  async function logOut() {
    const refreshToken = localStorage.getItem("deep-research.refresh-token");
    if (refreshToken) await api.POST("/api/auth/logout", { body: { refresh_token: refreshToken } });
    session.signedOut();
    queryClient.clear(); // the next account must never see this one's cached data
    navigate("/login");
  }
  return (
    <>
      <header>
        <MainMenu isAdmin={me.data?.is_admin === true} />
        <button type="button" className="log-out" onClick={logOut}>
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
        <Route path="/verify-email" element={<VerifyEmail />} />
        <Route path="/oauth/consent" element={<OAuthConsent />} />
        <Route element={<Account />}>
          <Route index element={<Overview />} />
          <Route path="playground" element={<Playground />} />
          <Route path="jobs" element={<Jobs />} />
          <Route path="jobs/:id" element={<JobDetail />} />
          <Route path="collections" element={<Collections />} />
          <Route path="monitors" element={<Monitors />} />
          <Route path="collections/:id" element={<CollectionDetail />} />
          <Route path="collections/:id/documents/:docId" element={<CollectionDocument />} />
          <Route path="keys" element={<Keys />} />
          <Route path="billing" element={<Billing />} />
          <Route path="settings" element={<Settings />} />
          <Route path="support" element={<Support />} />
          <Route path="admin/*" element={<AdminRoutes />} />
        </Route>
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </BrowserRouter>
  );
}
