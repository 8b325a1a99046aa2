import type { EmailMessage } from "./email";

/** The wording of account emails. Links carry the token; nothing else identifies the user. */
export function verificationEmail(to: string, link: string): EmailMessage {
  return {
    to,
    subject: "Confirm your email address",
    text: [
      "Welcome to Deep Research.",
      "",
      "Confirm your email address by opening this link (valid for 48 hours):",
      link,
      "",
      "Your account already has 500 free credits to try the API.",
      "If you did not sign up, ignore this email.",
    ].join("\n"),
  };
}

export function passwordResetEmail(to: string, link: string): EmailMessage {
  return {
    to,
    subject: "Reset your password",
    text: [
      "Someone (hopefully you) asked to reset the password of your Deep Research account.",
      "",
      "Choose a new password here (the link works once, for 1 hour):",
      link,
      "",
      "If you did not ask for this, ignore this email; your password stays as it is.",
    ].join("\n"),
  };
}
