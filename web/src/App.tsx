import { useQuery } from "@tanstack/react-query";
import { api } from "./api/client";

/** The dashboard's shell (issue 17 builds its pages on it): it shows that the API it talks to is up. */
export function App() {
  const health = useQuery({
    queryKey: ["healthz"],
    queryFn: async () => {
      const { data, error } = await api.GET("/healthz");
      if (error) throw new Error("The service did not answer.");
      return data;
    },
  });
  return (
    <main>
      <h1>Deep Research</h1>
      <p role="status">{health.isPending ? "Checking the service…" : health.isError ? "The service is not reachable." : "The service is up."}</p>
    </main>
  );
}
