import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, describe, expect, it } from "vitest";
import { JobLineage } from "../src/components/JobLineage";

afterEach(cleanup);

const PREVIOUS = "63b1e89d-8acd-48c3-9508-7482112b2305";
const PLAN = "0b7e1c52-3f0a-4d8e-9a51-6c2f4e8d9b17";
const MONITOR = "5d1f3a9e-2c47-4b8a-8e6d-0f9c7b2a4e31";

function renderLineage(job: { previous_job_id: string | null; plan_id: string | null; monitor_id: string | null }) {
  return render(
    <MemoryRouter>
      <JobLineage job={job} />
    </MemoryRouter>,
  );
}

describe("JobLineage (the jobs list's From column)", () => {
  it("tags a follow-up with a link to the job it follows up", () => {
    renderLineage({ previous_job_id: PREVIOUS, plan_id: null, monitor_id: null });
    expect(screen.getByRole("link", { name: "follow-up" }).getAttribute("href")).toBe(`/jobs/${PREVIOUS}`);
    expect(screen.queryByText("plan")).toBeNull();
    expect(screen.queryByText("monitor")).toBeNull();
  });

  it("tags a plan's job (no link: a plan has no page) and a monitor's run with a link to the Monitors page", () => {
    renderLineage({ previous_job_id: null, plan_id: PLAN, monitor_id: null });
    expect(screen.getByText("plan").getAttribute("title")).toContain(PLAN);
    expect(screen.queryAllByRole("link")).toEqual([]);
    cleanup();
    renderLineage({ previous_job_id: null, plan_id: null, monitor_id: MONITOR });
    expect(screen.getByRole("link", { name: "monitor" }).getAttribute("href")).toBe("/monitors");
  });

  it("shows both tags of a follow-up run from a plan, and a dash for a job submitted plainly", () => {
    renderLineage({ previous_job_id: PREVIOUS, plan_id: PLAN, monitor_id: null });
    expect(screen.getByRole("link", { name: "follow-up" })).toBeTruthy();
    expect(screen.getByText("plan")).toBeTruthy();
    cleanup();
    const { container } = renderLineage({ previous_job_id: null, plan_id: null, monitor_id: null });
    expect(container.textContent).toBe("–");
  });
});
