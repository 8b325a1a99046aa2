/** Placeholder while issue 17 builds this page. */
export function JobDetail() {
  return <h1>JobDetail</h1>;
}
