import { useMe } from "../auth";
import { ErrorNotice } from "../components/ErrorNotice";
import { Loading } from "../components/Loading";
import { AccountFacts } from "./settings/AccountFacts";
import { MarketingForm } from "./settings/MarketingForm";
import { PasswordForm } from "./settings/PasswordForm";
import { ProfileForm } from "./settings/ProfileForm";
import { WebhookSecret } from "./settings/WebhookSecret";
import "./Settings.css";

/** Settings: the account's email, profile, password, marketing emails and webhook signing secret. */
export function Settings() {
  const me = useMe();
  return (
    <section aria-labelledby="settings-title" className="settings">
      <h1 id="settings-title">Settings</h1>
      {me.isPending && <Loading what="your settings" />}
      <ErrorNotice error={me.error} />
      {me.data && (
        <>
          <AccountFacts me={me.data} />
          <ProfileForm me={me.data} />
          <PasswordForm />
          <MarketingForm me={me.data} />
          <WebhookSecret />
        </>
      )}
    </section>
  );
}
