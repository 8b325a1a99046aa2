import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, dataOf, type Schemas } from "../../api/client";
import { ErrorNotice } from "../../components/ErrorNotice";

/** First and last name, prefilled from the signed-in user; saving refreshes everything that shows the user. */
export function ProfileForm({ me }: { me: Schemas["UserDto"] }) {
  const queryClient = useQueryClient();
  const [firstName, setFirstName] = useState(me.first_name);
  const [lastName, setLastName] = useState(me.last_name);
  const save = useMutation({
    mutationFn: (body: Schemas["ProfileBody"]) => dataOf(api.PUT("/api/settings/profile", { body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["me"] }),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({ first_name: firstName.trim(), last_name: lastName.trim() });
  }
  return (
    <section aria-labelledby="profile-title" className="card">
      <h2 id="profile-title">Profile</h2>
      <form onSubmit={submit} aria-label="Profile">
        <div className="pair">
          <label>
            First name
            <input autoComplete="given-name" maxLength={100} value={firstName} onChange={(event) => setFirstName(event.target.value)} />
          </label>
          <label>
            Last name
            <input autoComplete="family-name" maxLength={100} value={lastName} onChange={(event) => setLastName(event.target.value)} />
          </label>
        </div>
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save profile"}
          </button>
          {save.isSuccess && (
            <p role="status" className="saved">
              Your profile is saved.
            </p>
          )}
        </div>
        <ErrorNotice error={save.error} />
      </form>
    </section>
  );
}
