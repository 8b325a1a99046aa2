import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { actionsColumn, type Column, DataTable } from "../src/components/DataTable";

afterEach(cleanup);

interface Row {
  id: number;
  question: string;
  credits: number;
}

const columns: Column<Row>[] = [
  { header: "Question", kind: "title", cell: (row) => row.question },
  { header: "Credits", kind: "number", cell: (row) => row.credits, className: (row) => (row.credits < 0 ? "debit" : "credit") },
  { header: "When", cell: () => "today", className: "muted" },
  actionsColumn((row) => <button type="button">Open {row.id}</button>),
];

const rows: Row[] = [
  { id: 1, question: "How did presidents talk about tariffs?", credits: 60 },
  { id: 2, question: "What did Lincoln say?", credits: -15 },
];

describe("DataTable", () => {
  it("shows nothing while the rows load, and the empty state when there are none", () => {
    const { container } = render(<DataTable caption="Jobs" columns={columns} rows={undefined} rowKey={(row) => row.id} empty={<p>No jobs yet.</p>} />);
    expect(container.innerHTML).toBe("");
    cleanup();
    render(<DataTable caption="Jobs" columns={columns} rows={[]} rowKey={(row) => row.id} empty={<p>No jobs yet.</p>} />);
    expect(screen.getByText("No jobs yet.")).toBeTruthy();
    expect(screen.queryByRole("table")).toBeNull();
  });

  it("renders a header per column and a cell per column in each row, named by a caption", () => {
    render(<DataTable caption="Jobs" columns={columns} rows={rows} rowKey={(row) => row.id} empty={<p>No jobs yet.</p>} />);
    const table = screen.getByRole("table", { name: "Jobs" });
    const headers = within(table).getAllByRole("columnheader");
    expect(headers.map((th) => th.textContent)).toEqual(["Question", "Credits", "When", "Actions"]);
    expect(headers.map((th) => th.getAttribute("scope"))).toEqual(["col", "col", "col", "col"]);
    // The actions header is for screen readers alone; a number's header is right-aligned like its cells.
    expect(headers[3]!.querySelector(".visually-hidden")?.textContent).toBe("Actions");
    expect(headers[1]!.className).toBe("number");
    const bodyRows = within(table).getAllByRole("row").slice(1);
    expect(
      bodyRows.map((tr) =>
        within(tr)
          .getAllByRole("cell")
          .map((td) => td.textContent),
      ),
    ).toEqual([
      ["How did presidents talk about tariffs?", "60", "today", "Open 1"],
      ["What did Lincoln say?", "-15", "today", "Open 2"],
    ]);
  });

  it("labels the cells for stacked rows (not the title or the actions) and merges each column's kind with its own classes", () => {
    render(<DataTable caption="Jobs" columns={columns} rows={rows} rowKey={(row) => row.id} empty={null} />);
    const [first, second] = screen.getAllByRole("row").slice(1);
    const cells = within(first!).getAllByRole("cell");
    expect(cells.map((td) => td.getAttribute("data-label"))).toEqual([null, "Credits", "When", null]);
    expect(cells.map((td) => td.getAttribute("class"))).toEqual(["question", "number credit", "muted", "actions"]);
    expect(within(second!).getAllByRole("cell")[1]!.className).toBe("number debit");
  });

  it("takes its name from a heading instead of a caption", () => {
    render(
      <section>
        <h2 id="recent-jobs">Recent jobs</h2>
        <DataTable labelledBy="recent-jobs" columns={columns} rows={rows} rowKey={(row) => row.id} empty={null} />
      </section>,
    );
    const table = screen.getByRole("table", { name: "Recent jobs" });
    expect(table.querySelector("caption")).toBeNull();
  });
});
