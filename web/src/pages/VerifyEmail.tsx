/** Placeholder while issue 17 builds this page. */
export function VerifyEmail() {
  return <h1>VerifyEmail</h1>;
}
