import { useQueryClient } from "@tanstack/react-query";
import { usePage } from "../components/Pager";
import { TicketForm } from "./support/TicketForm";
import { TICKETS_KEY, TicketList } from "./support/TicketList";
import "./Support.css";

/** Support: send a request to the team, and follow your requests and their replies. */
export function Support() {
  const queryClient = useQueryClient();
  const paging = usePage(10);
  function sent() {
    paging.reset(); // the new request is the newest: show the first page
    void queryClient.invalidateQueries({ queryKey: TICKETS_KEY });
  }
  return (
    <section aria-labelledby="support-title" className="support">
      <h1 id="support-title">Support</h1>
      <p className="muted">Questions about billing, a problem with a request, an idea? Write to us: we answer here and by email.</p>
      <TicketForm onSent={sent} />
      <TicketList paging={paging} />
    </section>
  );
}
