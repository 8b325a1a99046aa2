/**
 * Which of the account's collections a question searches, and whether the default sources too:
 * the same choice in the Playground and in a new monitor. Nothing shows without a collection.
 */
export function CollectionChoice({
  collections,
  chosen,
  alsoWeb,
  onToggle,
  onAlsoWeb,
}: {
  collections: readonly { id: string; name: string }[] | undefined;
  chosen: readonly string[];
  alsoWeb: boolean;
  onToggle: (id: string, checked: boolean) => void;
  onAlsoWeb: (checked: boolean) => void;
}) {
  if (!collections || collections.length === 0) return null;
  return (
    <fieldset className="choices">
      <legend>Search your collections (instead of the default sources)</legend>
      {collections.map((collection) => (
        <label key={collection.id} className="check">
          <input type="checkbox" checked={chosen.includes(collection.id)} onChange={(e) => onToggle(collection.id, e.target.checked)} />
          {collection.name}
        </label>
      ))}
      {chosen.length > 0 && (
        <label className="check">
          <input type="checkbox" checked={alsoWeb} onChange={(e) => onAlsoWeb(e.target.checked)} />
          Also search the default sources
        </label>
      )}
    </fieldset>
  );
}
