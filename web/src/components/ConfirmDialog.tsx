import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";

/** What a confirmation asks: a title, what will happen, and the action's own name on its button. */
export interface ConfirmRequest {
  title: string;
  message: ReactNode;
  /** The button that goes ahead ("Revoke", "Delete"): named after the action, never "OK". */
  confirmLabel: string;
}

/**
 * The app's own confirmation: a modal `<dialog>` (the browser traps focus and makes the page
 * inert), opened with the focus on Cancel so a stray Enter never does the harmful thing; Escape
 * cancels. It replaces `window.confirm()`, which cannot be styled, says "OK", and blocks the page.
 */
function ConfirmDialog({ request, onDone }: { request: ConfirmRequest; onDone: (confirmed: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
    cancel.current?.focus();
  }, []);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // One way out for every way of closing: a button (its return value) or Escape (none).
    const closed = () => onDone(element.returnValue === "confirm");
    element.addEventListener("close", closed);
    return () => element.removeEventListener("close", closed);
  }, [onDone]);
  return (
    <dialog ref={dialog} className="confirm" aria-labelledby={titleId} aria-describedby={messageId}>
      <h2 id={titleId}>{request.title}</h2>
      <div id={messageId}>{request.message}</div>
      <div className="dialog-actions">
        {/* type="button": the dialog may sit inside a form (a refund), which these buttons must not submit. */}
        <button ref={cancel} type="button" className="secondary" onClick={() => dialog.current?.close("cancel")}>
          Cancel
        </button>
        <button type="button" className="danger" onClick={() => dialog.current?.close("confirm")}>
          {request.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/**
 * `confirm(request)` resolves true when the person goes ahead, false when they cancel; render
 * `dialog` somewhere in the component (it is null while nothing is asked).
 */
export function useConfirm(): { confirm: (request: ConfirmRequest) => Promise<boolean>; dialog: ReactNode } {
  const [asking, setAsking] = useState<{ request: ConfirmRequest; resolve: (confirmed: boolean) => void } | null>(null);
  const confirm = useCallback((request: ConfirmRequest) => new Promise<boolean>((resolve) => setAsking({ request, resolve })), []);
  const done = useCallback(
    (confirmed: boolean) => {
      asking?.resolve(confirmed);
      setAsking(null);
    },
    [asking],
  );
  return { confirm, dialog: asking && <ConfirmDialog key={asking.request.title} request={asking.request} onDone={done} /> };
}
