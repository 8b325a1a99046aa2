"""Collections, file upload, documents; and research over a collection."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from deep_research import DeepResearch, NotFoundError


def test_collections_with_file_upload(client: DeepResearch, tmp_path: Path) -> None:
    created = client.collections.create("Board papers", description="Minutes and memos")
    assert created["name"] == "Board papers" and created["document_count"] == 0
    assert client.collections.get(created["id"]) == created
    assert created["id"] in [c["id"] for c in client.collections.list()]

    minutes = tmp_path / "minutes.md"
    minutes.write_text("# Board minutes\n\nThe board of the Zephyr Canal Company decided to widen the canal in 1911.\n")
    before = client.credits.get()["credits"]
    ingested = client.collections.upload(
        created["id"],
        [minutes, ("memo.txt", "The treasurer of the Zephyr Canal Company reported a surplus."), io.BytesIO(b"plain bytes, no name")],
    )
    assert ingested["ingested"] == 3
    assert [d["title"] for d in ingested["documents"]] == ["Board minutes", "memo", "upload"]  # heading, file name, default name
    assert client.credits.get()["credits"] < before  # ingest is charged (at least 1 credit a call)

    added = client.collections.add_documents(created["id"], [{"title": "Policy", "text": "Canals are widened only with the board's approval.", "url": "https://intranet.example/policy"}])
    assert added["ingested"] == 1 and added["documents"][0]["url"] == "https://intranet.example/policy"

    summaries = list(client.collections.documents(created["id"], limit=2))  # two pages
    assert len(summaries) == 4 and all("text" not in s for s in summaries)
    one = client.collections.document(created["id"], added["documents"][0]["id"])
    assert one["text"] == "Canals are widened only with the board's approval."

    renamed = client.collections.update(created["id"], name="Board", description=None)
    assert renamed["name"] == "Board" and renamed["description"] is None and renamed["document_count"] == 4

    result = client.research.run("When did the Zephyr Canal Company decide to widen the canal?", mode="lite", collections=[created["id"]])
    assert result["status"] == "succeeded"
    assert any(s["url"].startswith("collection://") or "intranet.example" in s["url"] for s in result["sources"])

    assert client.collections.delete_document(created["id"], one["id"]) == {"deleted": True}
    with pytest.raises(NotFoundError):
        client.collections.document(created["id"], one["id"])
    assert client.collections.delete(created["id"]) == {"deleted": True}
    with pytest.raises(NotFoundError):
        client.collections.get(created["id"])


def test_another_accounts_collection_is_not_found(client: DeepResearch, second_client: DeepResearch) -> None:
    mine = client.collections.create("Private")
    with pytest.raises(NotFoundError):
        second_client.collections.get(mine["id"])
    with pytest.raises(NotFoundError):
        second_client.collections.upload(mine["id"], [("x.txt", "text")])
    client.collections.delete(mine["id"])


def test_credits_and_modes(client: DeepResearch) -> None:
    balance = client.credits.get()
    assert set(balance) == {"credits", "usd"}
    assert balance["usd"] == f"{balance['credits'] / 100:.2f}"
    modes = {m["mode"]: m for m in client.modes.list()}
    assert modes["lite"]["credits"] == 15 and modes["max"]["credits"] is None
