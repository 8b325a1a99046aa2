/** Placeholder while issue 17 builds the admin pages. */
export function AdminRoutes() {
  return <h1>Admin</h1>;
}
