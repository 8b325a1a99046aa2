import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, dataOf } from "../../api/client";
import { useMe } from "../../auth";
import { useConfirm } from "../../components/ConfirmDialog";
import { ErrorNotice } from "../../components/ErrorNotice";
import { when } from "../../format";
import { refreshAdmin } from "./refresh";

/**
 * Suspend (after a confirmation: the user is locked out at once) or lift a suspension. Admins cannot
 * suspend themselves (the API refuses it too), so the last admin never locks the operator surface.
 */
export function SuspendControl({ user }: { user: { id: string; email: string; suspended_at?: string | null } }) {
  const queryClient = useQueryClient();
  const me = useMe();
  const [done, setDone] = useState<string | null>(null);
  const { confirm, dialog } = useConfirm();
  const change = useMutation({
    mutationFn: (suspend: boolean) =>
      dataOf(api.POST(suspend ? "/api/admin/users/{id}/suspend" : "/api/admin/users/{id}/unsuspend", { params: { path: { id: user.id } } })),
    onSuccess: (_data, suspend) => {
      setDone(suspend ? `${user.email} is suspended.` : `${user.email} can use the service again.`);
      void refreshAdmin(queryClient, "users", "stats", "audit");
    },
  });
  async function suspend() {
    const confirmed = await confirm({
      title: `Suspend ${user.email}?`,
      message: "They are logged out of the dashboard and their API keys stop working at once; running jobs finish.",
      confirmLabel: "Suspend",
    });
    if (!confirmed) return;
    setDone(null);
    change.mutate(true);
  }
  const self = me.data?.id === user.id;
  return (
    <div className="card" role="group" aria-label="Suspension">
      <h2>Access</h2>
      {user.suspended_at ? (
        <>
          <p>
            <span className="tag bad">Suspended</span> since {when(user.suspended_at)}.
          </p>
          <button
            type="button"
            className="secondary"
            disabled={change.isPending}
            onClick={() => {
              setDone(null);
              change.mutate(false);
            }}
          >
            Lift the suspension
          </button>
        </>
      ) : (
        <>
          <p>Active. Suspending refuses their logins and every dashboard or API-key call.</p>
          {self ? (
            <p className="muted">This is your own account: it cannot be suspended from here.</p>
          ) : (
            <button type="button" className="danger" disabled={change.isPending} onClick={suspend}>
              Suspend this user
            </button>
          )}
        </>
      )}
      {done && <p role="status">{done}</p>}
      <ErrorNotice error={change.error} />
      {dialog}
    </div>
  );
}
