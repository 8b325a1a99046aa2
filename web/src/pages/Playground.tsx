/** Placeholder while issue 17 builds this page. */
export function Playground() {
  return <h1>Playground</h1>;
}
