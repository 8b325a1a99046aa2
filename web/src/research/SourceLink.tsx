import { Link } from "react-router-dom";

/** `collection://<collection id>/<document id>`: a document of the customer's collections that has no url of its own. */
const COLLECTION_URL = /^collection:\/\/([0-9a-f-]{36})\/([0-9a-f-]{36})$/i;

/**
 * A source's title as a link a browser can follow. A web page opens in a new tab. A document of
 * the customer's collections (`collection://…`) opens in the dashboard's document view. A
 * document of the shared corpus (`corpus://…`) is plain text: no API lets a customer read one, so
 * there is nothing to open. Any other scheme is plain text too (a `javascript:` url stays inert).
 */
export function SourceLink({ url, title }: { url: string; title: string }) {
  const collection = COLLECTION_URL.exec(url);
  if (collection) return <Link to={`/collections/${collection[1]}/documents/${collection[2]}`}>{title}</Link>;
  if (/^https?:\/\//i.test(url)) {
    return (
      <a href={url} target="_blank" rel="noreferrer">
        {title}
      </a>
    );
  }
  return <span className="source-title">{title}</span>;
}
