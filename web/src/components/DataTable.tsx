import type { ReactNode } from "react";

/**
 * One column of a DataTable, declared once for its header and every row's cell. The header also
 * names each cell on narrow screens, where the rows stack and the header row is hidden (data-label).
 */
export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /**
   * "number": figures, right-aligned under a right-aligned header. "title": what the row is about (a
   * question, a name); a stacked row leads with it, so it goes unlabelled. "actions": the row's
   * buttons, under a header only screen readers read.
   */
  kind?: "number" | "title" | "actions";
  /** The cells' own classes; a function where they depend on the row (a debit shows red). */
  className?: string | ((row: Row) => string);
}

/** How screen readers name the table: a caption they alone read, or the heading it belongs to. */
type TableName = { caption: string; labelledBy?: never } | { labelledBy: string; caption?: never };

type DataTableProps<Row> = TableName & {
  columns: readonly Column<Row>[];
  /** Undefined while the rows load: then nothing shows (the page says it is loading). */
  rows: readonly Row[] | undefined;
  rowKey: (row: Row) => string | number;
  /** What stands in the table's place when there are no rows. */
  empty: ReactNode;
  className?: string;
};

const KIND_CLASS = { number: "number", title: "question", actions: "actions" } as const;

/** A list as a table: one row per item, one cell per column, or the empty state when there is none. */
export function DataTable<Row>({ columns, rows, rowKey, empty, className, caption, labelledBy }: DataTableProps<Row>) {
  if (!rows) return null;
  if (rows.length === 0) return <>{empty}</>;
  return (
    <table className={className} aria-labelledby={labelledBy}>
      {caption !== undefined && <caption className="visually-hidden">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={column.kind === "number" ? "number" : undefined}>
              {column.kind === "actions" ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td
                key={column.header}
                data-label={column.kind === "title" || column.kind === "actions" ? undefined : column.header}
                className={cellClass(column, row)}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function cellClass<Row>(column: Column<Row>, row: Row): string | undefined {
  const own = typeof column.className === "function" ? column.className(row) : column.className;
  return [column.kind && KIND_CLASS[column.kind], own].filter(Boolean).join(" ") || undefined;
}

/** The usual last column: the row's buttons. */
export function actionsColumn<Row>(cell: (row: Row) => ReactNode): Column<Row> {
  return { header: "Actions", kind: "actions", cell };
}
