import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";

/** The marketing-email choice, saved as soon as the box is ticked or cleared (a status line says so). */
export function MarketingForm({ me }: { me: Schemas["UserDto"] }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(me.marketing_emails_enabled);
  const save = useMutation({
    mutationFn: (wanted: boolean) => dataOf(api.PUT("/api/settings/marketing", { body: { enabled: wanted } })).then(() => wanted),
    onMutate: (wanted) => setEnabled(wanted),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["me"] }),
    onError: (_error, wanted) => setEnabled(!wanted), // not saved: show the choice as it still is
  });
  return (
    <section aria-labelledby="marketing-title" className="card">
      <h2 id="marketing-title">Emails</h2>
      <p className="muted">Account emails (verification, password reset, replies to your tickets) are always sent.</p>
      <label className="check">
        <input type="checkbox" checked={enabled} disabled={save.isPending} onChange={(event) => save.mutate(event.target.checked)} />
        Send me product news and offers
      </label>
      {save.isSuccess && (
        <p role="status" className="saved">
          {save.data ? "Saved: you will receive product news and offers." : "Saved: you will not receive product news or offers."}
        </p>
      )}
      <ErrorNotice error={save.error} />
    </section>
  );
}
