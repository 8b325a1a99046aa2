/** Placeholder while issue 17 builds this page. */
export function Settings() {
  return <h1>Settings</h1>;
}
