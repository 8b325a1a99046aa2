/** Placeholder while issue 17 builds this page. */
export function Billing() {
  return <h1>Billing</h1>;
}
