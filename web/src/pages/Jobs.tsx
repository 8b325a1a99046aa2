/** Placeholder while issue 17 builds this page. */
export function Jobs() {
  return <h1>Jobs</h1>;
}
