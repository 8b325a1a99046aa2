/** Placeholder while issue 17 builds this page. */
export function Support() {
  return <h1>Support</h1>;
}
